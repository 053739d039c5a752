import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageInboundData, MessageStatusData, RecipientStatus } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { statusTransition, type CounterDeltas } from './status-transition';

/** Cloud API errors meaning the number's quality or spam standing is at risk: the campaign stops (CONTRACT.md §15). */
export const QUALITY_BLOCK_CODES: ReadonlySet<string> = new Set(['131048', '131049', '131056', '368']);

/** A recipient counts `replied` when they write back within this time of their campaign message. */
const REPLY_WINDOW = '72 hours';

/** One `message.status` of a tenant's message, as consumed. */
export interface StatusUpdate {
  tenantId: string;
  status: MessageStatusData;
}

type Counter = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
const COUNTERS: readonly Counter[] = ['queued', 'sent', 'delivered', 'read', 'failed'];

export interface LockedRecipient {
  message_id: string;
  tenant_id: string;
  campaign_id: string;
  status: RecipientStatus;
}

/**
 * Results of campaigns: recipients' statuses from `message.status` and replies from `message.inbound`. Counters change
 * only with a recipient's transition, in one transaction with it (under the recipient's row lock): a status or an
 * inbound message delivered twice changes nothing the second time.
 *
 * Statuses are applied a consumed batch at a time (issue 19): the key groups consumed side by side share one look-up
 * that picks out the campaign messages (most statuses are no campaign's), and the campaign messages' statuses of the
 * whole batch are folded in memory and written in one transaction of a constant number of statements, instead of a
 * transaction of five statements per status, each updating the same hot campaign row.
 */
@Injectable()
export class CampaignResultsService {
  private readonly logger = new Logger(CampaignResultsService.name);

  /** Each item is a key group's statuses, in their order; the groups consumed side by side share one write. */
  private readonly statusWrites = new GroupCommit<StatusUpdate[], void>(async (groups) => {
    await this.applyAll(groups.flat());
    return groups.map(() => undefined);
  });

  /** Each item is a key group's inbound messages; the groups consumed side by side share one statement. */
  private readonly replyWrites = new GroupCommit<{ tenantId: string; inbound: MessageInboundData }[], void>(async (groups) => {
    await this.applyReplies(groups.flat());
    return groups.map(() => undefined);
  });

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Applies one key group's statuses, in order (a message's statuses share its key, so their order is the provider's). */
  applyStatuses(updates: StatusUpdate[]): Promise<void> {
    return updates.length === 0 ? Promise.resolve() : this.statusWrites.add(updates);
  }

  private async applyAll(updates: StatusUpdate[]): Promise<void> {
    const ours = await this.campaignStatuses(updates);
    if (ours.length === 0) return;
    await this.db.transaction(async (tx) => {
      // Locked in message id order, so two instances applying overlapping batches cannot deadlock on recipients.
      const locked = (await tx.query(
        `SELECT r.message_id, r.tenant_id, r.campaign_id, r.status FROM campaign_recipients r
           JOIN unnest($1::text[], $2::text[]) AS x(message_id, tenant_id) ON r.message_id = x.message_id AND r.tenant_id = x.tenant_id
          ORDER BY r.message_id FOR UPDATE OF r`,
        [ours.map((u) => u.status.message_id), ours.map((u) => u.tenantId)],
      )) as LockedRecipient[];
      const fold = foldStatuses(locked, ours);
      if (fold.recipients.size === 0) return;
      const recipients = [...fold.recipients];
      await tx.query(
        `UPDATE campaign_recipients r SET status = x.status, error = x.error::jsonb, updated_at = now()
           FROM unnest($1::text[], $2::text[], $3::text[]) AS x(message_id, status, error) WHERE r.message_id = x.message_id`,
        [recipients.map(([id]) => id), recipients.map(([, r]) => r.status), recipients.map(([, r]) => r.error)],
      );
      const campaigns = [...fold.deltas];
      await tx.query(
        `UPDATE campaigns c SET queued = c.queued + d.queued, sent = c.sent + d.sent, delivered = c.delivered + d.delivered,
                "read" = c."read" + d."read", failed = c.failed + d.failed, updated_at = now()
           FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[]) AS d(id, queued, sent, delivered, "read", failed)
          WHERE c.id = d.id`,
        [campaigns.map(([id]) => id), ...COUNTERS.map((counter) => campaigns.map(([, deltas]) => deltas[counter] ?? 0))],
      );
      if (fold.blocks.size === 0) return;
      const blocks = [...fold.blocks];
      const paused = (await tx.query(
        `UPDATE campaigns c SET status = 'paused', status_reason = x.reason, updated_at = now()
           FROM unnest($1::text[], $2::text[]) AS x(id, reason) WHERE c.id = x.id AND c.status = 'running' RETURNING c.id, x.reason`,
        [blocks.map(([id]) => id), blocks.map(([, reason]) => reason)],
      )) as { id: string; reason: string }[];
      for (const row of paused) this.logger.warn(`campaign ${row.id} ${row.reason}`);
    });
  }

  /**
   * The updates that are a campaign's, in one statement without locks. Exact ahead of the locked read: a recipient's row
   * (with its message id) is written when the campaign starts, before its message is published, and never deleted.
   */
  private async campaignStatuses(updates: StatusUpdate[]): Promise<StatusUpdate[]> {
    const rows = (await this.db.query(
      `SELECT x.n FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(message_id, tenant_id, n)
       WHERE EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.message_id = x.message_id AND r.tenant_id = x.tenant_id)`,
      [updates.map((u) => u.status.message_id), updates.map((u) => u.tenantId)],
    )) as { n: string }[];
    const found = new Set(rows.map((r) => Number(r.n) - 1));
    return updates.filter((_, i) => found.has(i));
  }

  /**
   * Counts the replies among one key group's inbound messages (a customer's, in order); the groups consumed side by
   * side share one statement (issue 19: it was one per inbound message, for every message whether a campaign's or not).
   */
  applyInbound(tenantId: string, messages: MessageInboundData[]): Promise<void> {
    return messages.length === 0 ? Promise.resolve() : this.replyWrites.add(messages.map((inbound) => ({ tenantId, inbound })));
  }

  /**
   * A customer's first message within 72 h of a campaign message counts `replied` for that campaign, once. The
   * provider's timestamp of the customer's message has whole seconds (Cloud API), so it is compared with the second the
   * campaign message was queued in: a reply within the same second still counts. Of several messages of one customer
   * in a batch, the earliest that qualifies is the reply. Recipients are locked in message id order, as statuses lock
   * them, so the two cannot deadlock; the lock re-reads `replied_at`, so a reply counts once across instances too.
   */
  private async applyReplies(replies: { tenantId: string; inbound: MessageInboundData }[]): Promise<void> {
    const phone = (from: string) => (from.startsWith('+') ? from : `+${from}`);
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
      [replies.map((r) => r.tenantId), replies.map((r) => phone(r.inbound.from)), replies.map((r) => r.inbound.sent_at)],
    );
  }
}

/** What a batch of statuses does to the locked recipients: their new status and error, each campaign's counter deltas, quality blocks. */
export interface StatusFold {
  recipients: Map<string, { status: RecipientStatus; error: string | null }>;
  deltas: Map<string, CounterDeltas>;
  /** campaign id → why it is paused */
  blocks: Map<string, string>;
}

/** Folds the statuses, in order, over the recipients' current statuses (a status that is no move changes nothing). */
export function foldStatuses(locked: readonly LockedRecipient[], updates: readonly StatusUpdate[]): StatusFold {
  const current = new Map(locked.map((r) => [r.message_id, { ...r }]));
  const fold: StatusFold = { recipients: new Map(), deltas: new Map(), blocks: new Map() };
  for (const { tenantId, status } of updates) {
    const recipient = current.get(status.message_id);
    if (!recipient || recipient.tenant_id !== tenantId) continue;
    const deltas = statusTransition(recipient.status, status.status);
    if (!deltas) continue;
    recipient.status = status.status;
    fold.recipients.set(status.message_id, { status: status.status, error: status.error ? JSON.stringify(status.error) : null });
    const sum = fold.deltas.get(recipient.campaign_id) ?? {};
    for (const [counter, delta] of Object.entries(deltas) as [Counter, number][]) sum[counter] = (sum[counter] ?? 0) + delta;
    fold.deltas.set(recipient.campaign_id, sum);
    if (status.status === 'failed' && status.error && QUALITY_BLOCK_CODES.has(String(status.error.code))) {
      fold.blocks.set(recipient.campaign_id, `paused by the provider's quality or spam block: ${status.error.code} ${status.error.title}`);
    }
  }
  return fold;
}
