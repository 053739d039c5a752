import { Injectable, Logger } from '@nestjs/common';
import type { MessageInboundData, MessageStatusData, RecipientStatus } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import { CampaignResultsStore, type LockedRecipient } from './campaign-results.store';
import { statusTransition, type CounterDeltas } from './status-transition';

export type { LockedRecipient } from './campaign-results.store';

/** Cloud API errors meaning the number's quality or spam standing is at risk: the campaign stops (CONTRACT.md §15). */
export const QUALITY_BLOCK_CODES: ReadonlySet<string> = new Set(['131048', '131049', '131056', '368']);

/** One `message.status` of a tenant's message, as consumed. */
export interface StatusUpdate {
  tenantId: string;
  status: MessageStatusData;
}

type Counter = keyof Required<CounterDeltas>;

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

  constructor(private readonly store: CampaignResultsStore) {}

  /** Applies one key group's statuses, in order (a message's statuses share its key, so their order is the provider's). */
  applyStatuses(updates: StatusUpdate[]): Promise<void> {
    return updates.length === 0 ? Promise.resolve() : this.statusWrites.add(updates);
  }

  private async applyAll(updates: StatusUpdate[]): Promise<void> {
    const ours = await this.campaignStatuses(updates);
    if (ours.length === 0) return;
    await this.store.transaction(async (tx) => {
      const locked = await this.store.lockRecipients(ours.map(messageOf), tx);
      const fold = foldStatuses(locked, ours);
      if (fold.recipients.size === 0) return;
      await this.store.setRecipientStatuses(fold.recipients, tx);
      await this.store.addToCounters(fold.deltas, tx);
      if (fold.blocks.size === 0) return;
      for (const row of await this.store.pauseRunning(fold.blocks, tx)) this.logger.warn(`campaign ${row.id} ${row.reason}`);
    });
  }

  /** The updates that are a campaign's (most statuses are no campaign's), in one statement without locks. */
  private async campaignStatuses(updates: StatusUpdate[]): Promise<StatusUpdate[]> {
    const found = await this.store.campaignMessages(updates.map(messageOf));
    return updates.filter((_, i) => found.has(i));
  }

  /**
   * Counts the replies among one key group's inbound messages (a customer's, in order); the groups consumed side by
   * side share one statement (issue 19: it was one per inbound message, for every message whether a campaign's or not).
   */
  applyInbound(tenantId: string, messages: MessageInboundData[]): Promise<void> {
    return messages.length === 0 ? Promise.resolve() : this.replyWrites.add(messages.map((inbound) => ({ tenantId, inbound })));
  }

  /** Counts the replies to campaign messages (CampaignResultsStore.countReplies says what counts). */
  private async applyReplies(replies: { tenantId: string; inbound: MessageInboundData }[]): Promise<void> {
    const phone = (from: string) => (from.startsWith('+') ? from : `+${from}`);
    await this.store.countReplies(replies.map((r) => ({ tenantId: r.tenantId, phone: phone(r.inbound.from), sentAt: r.inbound.sent_at })));
  }
}

const messageOf = (update: StatusUpdate) => ({ tenantId: update.tenantId, messageId: update.status.message_id });

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
