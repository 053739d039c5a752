import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RecipientStatus } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { CounterDeltas } from './status-transition';

/** A recipient as a status batch finds it, locked. */
export interface LockedRecipient {
  message_id: string;
  tenant_id: string;
  campaign_id: string;
  status: RecipientStatus;
}

/** A tenant's message, as a status or a reply names it. */
export interface TenantMessage {
  tenantId: string;
  messageId: string;
}

/** A customer's message that may answer a campaign: from which number, and when the provider says it was sent. */
export interface CustomerMessage {
  tenantId: string;
  /** E.164 with its `+`. */
  phone: string;
  sentAt: string;
}

type Counter = keyof Required<CounterDeltas>;
const COUNTERS: readonly Counter[] = ['queued', 'sent', 'delivered', 'read', 'failed'];

/** A recipient counts `replied` when they write back within this time of their campaign message. */
const REPLY_WINDOW = '72 hours';

/**
 * Campaign results as stored: recipients' statuses and the campaigns' counters, written a consumed batch at a time
 * across tenants (each message and recipient matched with its tenant). Methods that run inside the caller's unit of
 * work (`transaction`) take its `tx` last.
 */
@Injectable()
export class CampaignResultsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Which of the messages are a campaign's (their positions in `messages`), in one statement without locks. Exact ahead
   * of the locked read: a recipient's row (with its message id) is written when the campaign starts, before its
   * message is published, and never deleted.
   */
  async campaignMessages(messages: TenantMessage[]): Promise<Set<number>> {
    const rows = (await this.db.query(
      `SELECT x.n FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(message_id, tenant_id, n)
       WHERE EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.message_id = x.message_id AND r.tenant_id = x.tenant_id)`,
      [messages.map((m) => m.messageId), messages.map((m) => m.tenantId)],
    )) as { n: string }[];
    return new Set(rows.map((r) => Number(r.n) - 1));
  }

  /** The messages' recipients, locked in message id order for `tx` (so two instances' overlapping batches cannot deadlock). */
  lockRecipients(messages: TenantMessage[], tx: EntityManager): Promise<LockedRecipient[]> {
    return tx.query(
      `SELECT r.message_id, r.tenant_id, r.campaign_id, r.status FROM campaign_recipients r
         JOIN unnest($1::text[], $2::text[]) AS x(message_id, tenant_id) ON r.message_id = x.message_id AND r.tenant_id = x.tenant_id
        ORDER BY r.message_id FOR UPDATE OF r`,
      [messages.map((m) => m.messageId), messages.map((m) => m.tenantId)],
    ) as Promise<LockedRecipient[]>;
  }

  /** New statuses (and errors, as JSON text) of locked recipients, by message id. */
  async setRecipientStatuses(statuses: Map<string, { status: RecipientStatus; error: string | null }>, tx: EntityManager): Promise<void> {
    const rows = [...statuses];
    await tx.query(
      `UPDATE campaign_recipients r SET status = x.status, error = x.error::jsonb, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS x(message_id, status, error) WHERE r.message_id = x.message_id`,
      [rows.map(([id]) => id), rows.map(([, r]) => r.status), rows.map(([, r]) => r.error)],
    );
  }

  /** Adds each campaign's counter deltas, in one statement. */
  async addToCounters(deltas: Map<string, CounterDeltas>, tx: EntityManager): Promise<void> {
    const campaigns = [...deltas];
    await tx.query(
      `UPDATE campaigns c SET queued = c.queued + d.queued, sent = c.sent + d.sent, delivered = c.delivered + d.delivered,
              "read" = c."read" + d."read", failed = c.failed + d.failed, updated_at = now()
         FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[]) AS d(id, queued, sent, delivered, "read", failed)
        WHERE c.id = d.id`,
      [campaigns.map(([id]) => id), ...COUNTERS.map((counter) => campaigns.map(([, d]) => d[counter] ?? 0))],
    );
  }

  /** Pauses the campaigns that are running, each with its reason; answers those it paused. */
  pauseRunning(reasons: Map<string, string>, tx: EntityManager): Promise<{ id: string; reason: string }[]> {
    const rows = [...reasons];
    return tx.query(
      `UPDATE campaigns c SET status = 'paused', status_reason = x.reason, updated_at = now()
         FROM unnest($1::text[], $2::text[]) AS x(id, reason) WHERE c.id = x.id AND c.status = 'running' RETURNING c.id, x.reason`,
      [rows.map(([id]) => id), rows.map(([, reason]) => reason)],
    ) as Promise<{ id: string; reason: string }[]>;
  }

  /**
   * A customer's first message within 72 h of a campaign message counts `replied` for that campaign, once. The
   * provider's timestamp of the customer's message has whole seconds (Cloud API), so it is compared with the second the
   * campaign message was queued in: a reply within the same second still counts. Of several messages of one customer
   * in a batch, the earliest that qualifies is the reply. Recipients are locked in message id order, as statuses lock
   * them, so the two cannot deadlock; the lock re-reads `replied_at`, so a reply counts once across instances too.
   */
  async countReplies(messages: CustomerMessage[]): Promise<void> {
    await this.db.query(
      `WITH x AS (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(tenant_id, phone, sent_at)),
       first AS (
         SELECT r.campaign_id, r.contact_id, min(x.sent_at) AS at
           FROM campaign_recipients r JOIN x ON r.tenant_id = x.tenant_id AND r.phone = x.phone
          WHERE r.replied_at IS NULL AND r.queued_at IS NOT NULL
            AND x.sent_at >= date_trunc('second', r.queued_at) AND x.sent_at < r.queued_at + interval '${REPLY_WINDOW}'
          GROUP BY r.campaign_id, r.contact_id),
       locked AS MATERIALIZED (
         SELECT r.campaign_id, r.contact_id, f.at FROM campaign_recipients r JOIN first f USING (campaign_id, contact_id)
          WHERE r.replied_at IS NULL ORDER BY r.message_id FOR UPDATE OF r),
       replied AS (
         UPDATE campaign_recipients r SET replied_at = l.at, updated_at = now()
           FROM locked l WHERE r.campaign_id = l.campaign_id AND r.contact_id = l.contact_id AND r.replied_at IS NULL
         RETURNING r.campaign_id)
       UPDATE campaigns c SET replied = c.replied + r.n, updated_at = now()
       FROM (SELECT campaign_id, count(*)::int AS n FROM replied GROUP BY campaign_id) r WHERE c.id = r.campaign_id`,
      [messages.map((m) => m.tenantId), messages.map((m) => m.phone), messages.map((m) => m.sentAt)],
    );
  }
}
