import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** A template as submitted, with the review outcome it will show from `reviewed_at`. */
export interface TemplateRow {
  id: string;
  name: string;
  language: string;
  category: string;
  components: unknown[];
  outcome: 'APPROVED' | 'REJECTED';
  reason: string | null;
  reviewed_at: Date;
}

/** The message templates of the sandbox's WhatsApp Business accounts. */
@Injectable()
export class TemplatesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** False when the account has a template of that name in that language already. */
  async insert(wabaId: string, template: TemplateRow, tx: EntityManager): Promise<boolean> {
    const inserted = (await tx.query(
      `INSERT INTO templates (id, waba_id, name, language, category, components, outcome, reason, reviewed_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) ON CONFLICT (waba_id, name, language) DO NOTHING RETURNING id`,
      [template.id, wabaId, template.name, template.language, template.category, JSON.stringify(template.components), template.outcome, template.reason, template.reviewed_at],
    )) as unknown[];
    return inserted.length > 0;
  }

  /** Newest first, of one name when given. */
  list(wabaId: string, name: string | null): Promise<TemplateRow[]> {
    return this.db.query(`SELECT * FROM templates WHERE waba_id = $1 AND ($2::text IS NULL OR name = $2) ORDER BY created_at DESC`, [wabaId, name]);
  }

  /** Deletes every language of the name, or the one template of `id`; how many went. */
  async delete(wabaId: string, name: string, id: string | null): Promise<number> {
    const deleted = (await this.db.query(`DELETE FROM templates WHERE waba_id = $1 AND name = $2 AND ($3::text IS NULL OR id = $3) RETURNING id`, [wabaId, name, id])) as unknown[];
    return deleted.length;
  }
}
