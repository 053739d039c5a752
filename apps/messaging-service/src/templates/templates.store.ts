import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TemplateCategory, TemplateStatus } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** A `templates` row as raw SQL answers it. */
export interface TemplateRow {
  id: string;
  tenant_id: string;
  channel_id: string;
  name: string;
  language: string;
  category: TemplateCategory;
  components: unknown[];
  status: TemplateStatus;
  reason: string | null;
  provider_template_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A template as submitted, before the provider saw it. */
export type NewTemplate = Pick<TemplateRow, 'id' | 'channel_id' | 'name' | 'language' | 'category' | 'components'>;

/** A provider's review result for a template of a WhatsApp Business Account (by provider id, else name and language). */
export interface TemplateReview {
  wabaId: string;
  providerTemplateId: string | null;
  name: string | null;
  language: string | null;
  status: TemplateStatus;
  reason: string | null;
}

/** The SQL of message templates; the tenant id first (TemplatesService keeps the rules of creating and sending them). */
@Injectable()
export class TemplatesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the template PENDING; false when its channel has one of that name and language already. */
  async insertPending(tenantId: string, t: NewTemplate): Promise<boolean> {
    const inserted = (await this.db.query(
      `INSERT INTO templates (id, tenant_id, channel_id, name, language, category, components, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'PENDING') ON CONFLICT (channel_id, name, language) DO NOTHING RETURNING id`,
      [t.id, tenantId, t.channel_id, t.name, t.language, t.category, JSON.stringify(t.components)],
    )) as { id: string }[];
    return inserted.length > 0;
  }

  async setProviderTemplateId(tenantId: string, id: string, providerTemplateId: string): Promise<void> {
    await this.db.query(`UPDATE templates SET provider_template_id = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, id, providerTemplateId]);
  }

  /** Newest first: up to `limit` of the tenant's templates with an id below `beforeId` (null: from the newest). */
  async list(tenantId: string, limit: number, beforeId: string | null): Promise<TemplateRow[]> {
    return (await this.db.query(`SELECT * FROM templates WHERE tenant_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [tenantId, beforeId, limit])) as TemplateRow[];
  }

  async find(tenantId: string, id: string): Promise<TemplateRow | null> {
    const [row] = (await this.db.query(`SELECT * FROM templates WHERE tenant_id = $1 AND id = $2`, [tenantId, id])) as TemplateRow[];
    return row ?? null;
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.db.query(`DELETE FROM templates WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /**
   * Applies a review to the template it names on the WABA's channels (of whichever tenant has them: the provider names
   * the account, not the tenant). Answers the templates it changed; none when they have that status and reason already.
   */
  async applyReview(review: TemplateReview): Promise<TemplateRow[]> {
    const changed = (await this.db.query(
      `UPDATE templates t SET status = $1, reason = $2, updated_at = now()
       FROM channels c
       WHERE c.id = t.channel_id AND COALESCE(c.waba_id, c.phone_number_id) = $3
         AND (t.provider_template_id = $4 OR (t.name = $5 AND t.language = $6))
         AND (t.status IS DISTINCT FROM $1 OR t.reason IS DISTINCT FROM $2)
       RETURNING t.*`,
      [review.status, review.reason, review.wabaId, review.providerTemplateId, review.name, review.language],
    )) as [TemplateRow[], number] | TemplateRow[];
    return (Array.isArray(changed[0]) ? changed[0] : changed) as TemplateRow[];
  }

  /** The templates of this name on the channel, in every language (the channel id is the tenant's: found for it). */
  async named(channelId: string, name: string): Promise<TemplateRow[]> {
    return (await this.db.query(`SELECT * FROM templates WHERE channel_id = $1 AND name = $2`, [channelId, name])) as TemplateRow[];
  }
}
