import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TemplateContent } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { CAMPAIGN_COLUMNS, type CampaignRow } from '../campaigns/campaigns.mapper';

/** A recipient waiting to be handed over, with its message id and filled template. */
export interface PendingRecipient {
  contact_id: string;
  phone: string;
  message_id: string;
  template: TemplateContent;
}

/** What a batch needs of its running campaign. */
export type SendingCampaign = Pick<CampaignRow, 'id' | 'tenant_id' | 'channel_id' | 'rate_per_second'>;

/**
 * The sender loop's SQL, across tenants (it works a due campaign at a time, whoever's): claims under `SKIP LOCKED`, so
 * any number of instances never take the same campaign or recipient, and the writes that follow a handed-over batch.
 * Methods that run inside the loop's unit of work (`transaction`) take its `tx` last.
 */
@Injectable()
export class CampaignSendingStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The scheduled campaign due first, its row locked for `tx`; null when none is due (or all are being started). */
  async claimDueScheduled(tx: EntityManager): Promise<CampaignRow | null> {
    const [campaign] = (await tx.query(
      `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE status = 'scheduled' AND schedule_at <= now() ORDER BY schedule_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    )) as CampaignRow[];
    return campaign ?? null;
  }

  /** A scheduled start that was refused: back to `draft`, with why (and what it would have cost, when that was the reason). */
  async returnToDraft(campaignId: string, reason: string, estimate: string | null, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE campaigns SET status = 'draft', status_reason = $2, estimate = coalesce($3::jsonb, estimate), updated_at = now() WHERE id = $1`, [
      campaignId,
      reason,
      estimate,
    ]);
  }

  /** The running campaign due first, its row locked for `tx`; null when none is due. */
  async claimDueRunning(tx: EntityManager): Promise<SendingCampaign | null> {
    const [campaign] = (await tx.query(
      `SELECT id, tenant_id, channel_id, rate_per_second FROM campaigns WHERE status = 'running' AND next_send_at <= now()
       ORDER BY next_send_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    )) as SendingCampaign[];
    return campaign ?? null;
  }

  /** Up to `size` of the campaign's pending recipients by contact id, locked for `tx` (skipping those another batch holds). */
  pendingBatch(campaignId: string, size: number, tx: EntityManager): Promise<PendingRecipient[]> {
    return tx.query(
      `SELECT contact_id, phone, message_id, template FROM campaign_recipients WHERE campaign_id = $1 AND status = 'pending'
       ORDER BY contact_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [campaignId, size],
    ) as Promise<PendingRecipient[]>;
  }

  async markCompleted(campaignId: string, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE campaigns SET status = 'completed', completed_at = now(), updated_at = now() WHERE id = $1`, [campaignId]);
  }

  /** A handed-over batch: its recipients `queued`, the campaign's count, and when its next batch is due. */
  async markQueued(campaignId: string, contactIds: string[], nextBatchInMs: number, tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE campaign_recipients SET status = 'queued', queued_at = now(), updated_at = now() WHERE campaign_id = $1 AND contact_id = ANY($2::text[]) AND status = 'pending'`,
      [campaignId, contactIds],
    );
    await tx.query(`UPDATE campaigns SET queued = queued + $2, next_send_at = now() + ($3 || ' milliseconds')::interval, updated_at = now() WHERE id = $1`, [
      campaignId,
      contactIds.length,
      String(nextBatchInMs),
    ]);
  }

  /**
   * In how many milliseconds the next batch of a running campaign or the next scheduled start is due (negative: it is
   * late); null when none runs and none is scheduled.
   */
  async nextDueInMs(): Promise<number | null> {
    // min() of no rows is NULL: an idle service sleeps its sweep instead of looking every few milliseconds
    const [next] = (await this.db.query(
      `SELECT (EXTRACT(EPOCH FROM (least(
                 (SELECT min(next_send_at) FROM campaigns WHERE status = 'running'),
                 (SELECT min(schedule_at) FROM campaigns WHERE status = 'scheduled')) - now())) * 1000)::float8 AS due_in_ms`,
    )) as { due_in_ms: number | null }[];
    return next?.due_in_ms ?? null;
  }

  /** Completed campaigns whose `campaign.completed` is not announced yet (after a crash too), in completion order. */
  unannouncedCompletions(limit: number): Promise<CampaignRow[]> {
    return this.db.query(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE status = 'completed' AND NOT completed_published ORDER BY completed_at LIMIT $1`, [
      limit,
    ]) as Promise<CampaignRow[]>;
  }

  async markCompletionAnnounced(campaignId: string): Promise<void> {
    await this.db.query(`UPDATE campaigns SET completed_published = true WHERE id = $1`, [campaignId]);
  }
}
