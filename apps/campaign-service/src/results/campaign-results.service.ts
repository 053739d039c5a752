import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageInboundData, MessageStatusData, RecipientStatus } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { statusTransition } from './status-transition';

/** Cloud API errors meaning the number's quality or spam standing is at risk: the campaign stops (CONTRACT.md §15). */
export const QUALITY_BLOCK_CODES: ReadonlySet<string> = new Set(['131048', '131049', '131056', '368']);

/** A recipient counts `replied` when they write back within this time of their campaign message. */
const REPLY_WINDOW = '72 hours';

/**
 * Results of campaigns: recipients' statuses from `message.status` and replies from `message.inbound`. Counters change
 * only with a recipient's transition, in one transaction with it (under the recipient's row lock): a status or an
 * inbound message delivered twice changes nothing the second time.
 */
@Injectable()
export class CampaignResultsService {
  private readonly logger = new Logger(CampaignResultsService.name);

  /** Look-ups of the key groups consumed side by side share one statement (group commit). */
  private readonly lookups = new GroupCommit<{ tenantId: string; messageId: string }, boolean>((keys) => this.campaignMessages(keys));

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Whether the message is one of a campaign's. Exact ahead of applyStatus: a recipient's row (with its message id) is
   * written when the campaign starts, before its message is published, and never deleted.
   */
  isCampaignMessage(tenantId: string, messageId: string): Promise<boolean> {
    return this.lookups.add({ tenantId, messageId });
  }

  private async campaignMessages(keys: { tenantId: string; messageId: string }[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.n FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(message_id, tenant_id, n)
       WHERE EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.message_id = x.message_id AND r.tenant_id = x.tenant_id)`,
      [keys.map((k) => k.messageId), keys.map((k) => k.tenantId)],
    )) as { n: string }[];
    const found = new Set(rows.map((r) => Number(r.n) - 1));
    return keys.map((_, i) => found.has(i));
  }

  async applyStatus(tenantId: string, status: MessageStatusData): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [recipient] = (await tx.query(
        `SELECT campaign_id, status FROM campaign_recipients WHERE message_id = $1 AND tenant_id = $2 FOR UPDATE`,
        [status.message_id, tenantId],
      )) as { campaign_id: string; status: RecipientStatus }[];
      if (!recipient) return; // not a campaign message
      const deltas = statusTransition(recipient.status, status.status);
      if (!deltas) return;
      await tx.query(`UPDATE campaign_recipients SET status = $2, error = $3::jsonb, updated_at = now() WHERE message_id = $1`, [
        status.message_id,
        status.status,
        status.error ? JSON.stringify(status.error) : null,
      ]);
      const sets = Object.entries(deltas).map(([column, delta]) => `${column} = ${column} + ${Number(delta)}`);
      await tx.query(`UPDATE campaigns SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [recipient.campaign_id]);
      if (status.status === 'failed' && status.error && QUALITY_BLOCK_CODES.has(String(status.error.code))) {
        const reason = `paused by the provider's quality or spam block: ${status.error.code} ${status.error.title}`;
        const paused = (await tx.query(`UPDATE campaigns SET status = 'paused', status_reason = $2, updated_at = now() WHERE id = $1 AND status = 'running' RETURNING id`, [
          recipient.campaign_id,
          reason,
        ])) as unknown[];
        if (paused.length > 0) this.logger.warn(`campaign ${recipient.campaign_id} ${reason}`);
      }
    });
  }

  /**
   * The customer's first message within 72 h of a campaign message counts `replied` for that campaign, once. The
   * provider's timestamp of the customer's message has whole seconds (Cloud API), so it is compared with the second the
   * campaign message was queued in: a reply within the same second still counts.
   */
  async applyInbound(tenantId: string, inbound: MessageInboundData): Promise<void> {
    const from = inbound.from.startsWith('+') ? inbound.from : `+${inbound.from}`;
    await this.db.query(
      `WITH replied AS (
         UPDATE campaign_recipients SET replied_at = $3, updated_at = now()
         WHERE tenant_id = $1 AND phone = $2 AND replied_at IS NULL AND queued_at IS NOT NULL
           AND $3::timestamptz >= date_trunc('second', queued_at) AND $3::timestamptz < queued_at + interval '${REPLY_WINDOW}'
         RETURNING campaign_id)
       UPDATE campaigns c SET replied = c.replied + r.n, updated_at = now()
       FROM (SELECT campaign_id, count(*)::int AS n FROM replied GROUP BY campaign_id) r WHERE c.id = r.campaign_id`,
      [tenantId, from, inbound.sent_at],
    );
  }
}
