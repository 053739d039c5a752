import { Controller, Injectable } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { Topics, type ContactCreatedEvent, type ContactRecord, type ContactUpdatedEvent } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** The customer's name as crm-service knows it, kept per number and address, and on each of their conversations. */
@Injectable()
export class ContactNamesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Keeps `name` for each of the contact's addresses unless a later change was kept already (events of one contact may
   * be redelivered), and gives it to their conversations. Answers whether anything changed.
   */
  async keep(tenantId: string, customers: string[], name: string | null, at: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const kept: { customer: string }[] = await tx.query(
        `INSERT INTO contact_names (tenant_id, customer, name, updated_at) SELECT $1, customer, $3, $4 FROM unnest($2::text[]) AS customer
         ON CONFLICT (tenant_id, customer) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
          WHERE contact_names.updated_at <= EXCLUDED.updated_at
         RETURNING customer`,
        [tenantId, customers, name, at],
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

/**
 * `contact.created` and `contact.updated` from crm-service (issue 32): a name the team edits on the contact, or that
 * a lead or an import gave it, is the name the inbox shows and searches. The dashboard reads the list again after
 * `contact.updated` (no inbox event says this changed: `conversation.updated`'s kinds are fixed per version).
 */
@Controller()
export class ContactNamesConsumer {
  constructor(private readonly names: ContactNamesStore) {}

  @EventPattern(Topics.ContactCreated)
  async onCreated(@Payload() event: ContactCreatedEvent): Promise<void> {
    await this.keep(event.tenant_id, event.data?.tenant_id, event.data?.contact, event.data?.at);
  }

  @EventPattern(Topics.ContactUpdated)
  async onUpdated(@Payload() event: ContactUpdatedEvent): Promise<void> {
    await this.keep(event.tenant_id, event.data?.tenant_id, event.data?.contact, event.data?.at);
  }

  private async keep(tenantId: string | null | undefined, dataTenant: string | undefined, contact: ContactRecord | undefined, at: string | undefined): Promise<void> {
    if (!tenantId || dataTenant !== tenantId || !contact || !at || Number.isNaN(Date.parse(at))) return;
    const customers = [contact.phone, contact.email].filter((a): a is string => typeof a === 'string' && a !== '');
    if (customers.length === 0) return;
    await this.names.keep(tenantId, customers, contact.name?.trim() || null, new Date(at));
  }
}
