import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CampaignAudience, CampaignEstimate, CampaignRecord, CampaignStatus, RecipientStatus, TemplateContent } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { CAMPAIGN_COLUMNS, type CampaignRow, type RecipientRow } from './campaigns.mapper';

/** A campaign as created (the store sets its counters and timestamps). */
export interface NewCampaign {
  id: string;
  name: string;
  channelId: string | null;
  template: CampaignRecord['template'];
  audience: CampaignAudience;
  status: 'draft' | 'scheduled';
  scheduleAt: Date | null;
  ratePerSecond: number;
}

/** A recipient as a start freezes it: the template filled for the contact, or none when the contact opted out. */
export interface FrozenRecipient {
  contact_id: string;
  phone: string;
  message_id: string;
  template: TemplateContent | null;
  status: 'pending' | 'skipped_opted_out';
}

/** How a frozen audience divides: everyone, the opted out (skipped), the messaged. */
export interface AudienceCounts {
  audience: number;
  skipped: number;
  messaged: number;
}

/**
 * Campaigns and their recipients as the API and a start see them; the tenant id is the first parameter of every
 * method. Methods that run inside a caller's unit of work (`transaction`) take its `tx` last; without it they run alone.
 */
@Injectable()
export class CampaignsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(tenantId: string, campaign: NewCampaign): Promise<CampaignRow> {
    const [row] = (await this.db.query(
      `INSERT INTO campaigns (id, tenant_id, name, channel_id, template, audience, status, schedule_at, rate_per_second)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9) RETURNING ${CAMPAIGN_COLUMNS}`,
      [
        campaign.id,
        tenantId,
        campaign.name,
        campaign.channelId,
        JSON.stringify(campaign.template),
        JSON.stringify(campaign.audience),
        campaign.status,
        campaign.scheduleAt,
        campaign.ratePerSecond,
      ],
    )) as CampaignRow[];
    return row;
  }

  /** Newest first: up to `limit` campaigns with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<CampaignRow[]> {
    return this.db.query(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE tenant_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [
      tenantId,
      beforeId,
      limit,
    ]) as Promise<CampaignRow[]>;
  }

  /** The campaign, or null; `lock`: its row stays locked for the rest of `tx`. */
  async find(tenantId: string, id: string, { tx = this.db.manager, lock = false }: { tx?: EntityManager; lock?: boolean } = {}): Promise<CampaignRow | null> {
    const [row] = (await tx.query(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, tenantId])) as CampaignRow[];
    return row ?? null;
  }

  /** Pause, resume or cancel: the new status, the reason cleared; a resumed campaign is due at once. */
  async setStatus(tenantId: string, id: string, status: Extract<CampaignStatus, 'paused' | 'running' | 'cancelled'>, tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE campaigns SET status = $3, status_reason = NULL, next_send_at = CASE WHEN $3 = 'running' THEN now() ELSE next_send_at END, updated_at = now()
        WHERE id = $1 AND tenant_id = $2`,
      [id, tenantId, status],
    );
  }

  /** What a refused start would have cost, kept on the campaign for the tenant to see. */
  async recordEstimate(tenantId: string, id: string, estimate: CampaignEstimate): Promise<void> {
    await this.db.query(`UPDATE campaigns SET estimate = $3::jsonb, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [id, tenantId, JSON.stringify(estimate)]);
  }

  /** A campaign's recipients by contact id: up to `limit` after `afterContactId` (null: from the first), of one status or all. */
  recipients(tenantId: string, campaignId: string, status: RecipientStatus | null, afterContactId: string | null, limit: number): Promise<RecipientRow[]> {
    return this.db.query(
      `SELECT contact_id, phone, message_id, status, error, replied_at, updated_at FROM campaign_recipients
       WHERE campaign_id = $1 AND tenant_id = $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR contact_id > $4)
       ORDER BY contact_id LIMIT $5`,
      [campaignId, tenantId, status, afterContactId, limit],
    ) as Promise<RecipientRow[]>;
  }

  /** Messages handed over per minute, oldest first (one scan of the campaign's recipients, a row a minute). */
  sendsPerMinute(tenantId: string, campaignId: string): Promise<{ minute: Date; count: number }[]> {
    return this.db.query(
      `SELECT date_trunc('minute', queued_at) AS minute, count(*)::int AS count FROM campaign_recipients
       WHERE campaign_id = $1 AND tenant_id = $2 AND queued_at IS NOT NULL
       GROUP BY 1 ORDER BY 1`,
      [campaignId, tenantId],
    ) as Promise<{ minute: Date; count: number }[]>;
  }

  /** Marks where a start's writes begin inside `tx`, so that a refused start takes them back out (`undoFreeze`). */
  async beginFreeze(tx: EntityManager): Promise<void> {
    await tx.query(`SAVEPOINT campaign_freeze`);
  }

  async undoFreeze(tx: EntityManager): Promise<void> {
    await tx.query(`ROLLBACK TO SAVEPOINT campaign_freeze`);
  }

  /**
   * Writes a page of recipients. A number already frozen for another contact (two contacts share it, in this page or an
   * earlier one) keeps one recipient whatever the order the pages came in: the lowest contact id's, as the campaign's
   * one message per number (`UNIQUE (campaign_id, phone)`) has always chosen. Ids compare byte-wise (COLLATE "C"), as
   * JavaScript compares them.
   */
  async insertRecipients(tenantId: string, campaignId: string, recipients: FrozenRecipient[], tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO campaign_recipients AS r (campaign_id, tenant_id, contact_id, phone, message_id, template, status)
       SELECT $1, $2, contact_id, phone, message_id, template, status
       FROM jsonb_to_recordset($3::jsonb) AS x(contact_id text, phone text, message_id text, template jsonb, status text)
       ON CONFLICT (campaign_id, phone) DO UPDATE
         SET contact_id = EXCLUDED.contact_id, message_id = EXCLUDED.message_id, template = EXCLUDED.template, status = EXCLUDED.status
         WHERE EXCLUDED.contact_id COLLATE "C" < r.contact_id COLLATE "C"`,
      [campaignId, tenantId, JSON.stringify(recipients)],
    );
  }

  async audienceCounts(tenantId: string, campaignId: string, tx: EntityManager): Promise<AudienceCounts> {
    const [counts] = (await tx.query(
      `SELECT count(*)::int AS audience, count(*) FILTER (WHERE status = 'skipped_opted_out')::int AS skipped, count(*) FILTER (WHERE status = 'pending')::int AS messaged
       FROM campaign_recipients WHERE campaign_id = $1 AND tenant_id = $2`,
      [campaignId, tenantId],
    )) as AudienceCounts[];
    return counts;
  }

  /** A frozen campaign starts sending now, at `pace` recipients a second. */
  async markRunning(tenantId: string, campaignId: string, counts: AudienceCounts, pace: number, estimate: CampaignEstimate | null, tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE campaigns SET status = 'running', status_reason = NULL, audience_count = $3, skipped_opted_out = $4, rate_per_second = $5, estimate = $6::jsonb,
         started_at = now(), next_send_at = now(), updated_at = now()
       WHERE id = $1 AND tenant_id = $2`,
      [campaignId, tenantId, counts.audience, counts.skipped, pace, estimate ? JSON.stringify(estimate) : null],
    );
  }

  /**
   * A deleted contact's recipient rows (CONTRACT.md §14) keep their message id and status (the counts stay exact, and
   * the id still stops a second send) but lose the number and the filled-in template; the placeholder
   * `erased:<contact id>` keeps `(campaign_id, phone)` unique. Idempotent.
   */
  async eraseContact(tenantId: string, contactId: string, phone: string | null): Promise<void> {
    await this.db.query(
      `UPDATE campaign_recipients SET phone = 'erased:' || contact_id, template = NULL, error = NULL
       WHERE tenant_id = $1 AND (contact_id = $2 OR phone = $3) AND phone NOT LIKE 'erased:%'`,
      [tenantId, contactId, phone],
    );
  }
}
