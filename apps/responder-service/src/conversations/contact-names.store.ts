import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The customer's name and tags as crm-service knows them, kept per number and address; the name also on each of their conversations (the tags are read by routing rules). */
@Injectable()
export class ContactNamesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Keeps `name` (and `tags`) for each of the contact's addresses unless a later change was kept already (events of one contact may
   * be redelivered), and gives it to their conversations. Answers whether anything changed.
   */
  async keep(tenantId: string, customers: string[], name: string | null, at: Date, tags: string[] = []): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const kept: { customer: string }[] = await tx.query(
        `INSERT INTO contact_names (tenant_id, customer, name, updated_at, tags) SELECT $1, customer, $3, $4, $5 FROM unnest($2::text[]) AS customer
         ON CONFLICT (tenant_id, customer) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at, tags = EXCLUDED.tags
          WHERE contact_names.updated_at <= EXCLUDED.updated_at
         RETURNING customer`,
        [tenantId, customers, name, at, tags],
      );
      if (kept.length === 0) return false;
      await tx.query(`UPDATE conversations SET contact_name = $3 WHERE tenant_id = $1 AND customer = ANY($2) AND contact_name IS DISTINCT FROM $3`, [
        tenantId,
        kept.map((k) => k.customer),
        name,
      ]);
      return true;
    });
  }
}
