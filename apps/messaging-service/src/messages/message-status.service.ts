import { Injectable } from '@nestjs/common';
import { Headers, Topics, campaignHeader, conversationKey, derivedId, type MessageStatusData, type OutboundStatus } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { GroupCommit } from '@parley/service-kit';
import type { MessageEntity, StatusEntry } from './message.entity';
import { messageFromRow } from './message-row';
import { MessageStatusStore, type AnnouncedMark, type StatusWrite } from './message-status.store';
import { foldStatuses, type BatchedStatus } from './status-batch';
import { advanceStatus, type IncomingStatus } from './status-machine';
import { WRITE_LINGER_MS } from '../database/write-linger';

const PUBLISH_TIMEOUT_MS = 5000;
/** A batch's announcements go out in one publish: give a large one longer before it counts as a broker outage. */
const BATCH_PUBLISH_TIMEOUT_MS = 15_000;

/** A provider status for a wamid on one of the tenant's channels, as a batch of notifications brings it. */
export interface ProviderStatus extends BatchedStatus {
  tenantId: string;
  channelId: string;
  providerMessageId: string;
}

/**
 * Moves outbound messages through their statuses and announces each new status on `message.status`.
 *
 * What has been announced is tracked per message (`announced_statuses` counts the announced history entries), so a
 * redelivered event whose change was stored but not yet announced announces it then. Event ids derive from the
 * message and the status, so an announcement repeated after a crash is one event to every consumer. A message's
 * first `sent` is announced only once the provider accepted it.
 */
@Injectable()
export class MessageStatusService {
  /** Concurrent "announced up to" marks share one statement (group commit). */
  private readonly announcedMarks = new GroupCommit<AnnouncedMark, void>((marks) => this.writeAnnounced(marks), { lingerMs: WRITE_LINGER_MS });
  /** Provider status batches of concurrent key groups share one transaction. */
  private readonly statusBatches = new GroupCommit<readonly ProviderStatus[], ProviderStatus[]>((batches) => this.applyBatches(batches), { lingerMs: WRITE_LINGER_MS });

  constructor(
    private readonly store: MessageStatusStore,
    private readonly publisher: EventPublisher,
  ) {}

  /** Applies a status to one of the tenant's outbound messages; announces what changed. */
  async apply(tenantId: string, messageId: string, incoming: IncomingStatus, requestId?: string): Promise<MessageEntity | null> {
    const message = await this.store.transaction(async (tx) => {
      const row = await this.store.lockOutbound(tenantId, messageId, tx);
      if (!row) return null;
      const change = advanceStatus({ status: row.status as OutboundStatus, history: row.statusHistory }, incoming);
      if (!change) return row;
      // Entries recorded before the provider took the message (its provisional `sent`) are never announced.
      if (row.providerMessageId === null) row.announcedStatuses = Math.max(row.announcedStatuses, change.history.length - change.added.length);
      row.status = change.status;
      row.statusHistory = change.history;
      row.error = change.error;
      return this.store.save(tenantId, row, tx);
    });
    if (message) await this.announce(message, requestId);
    return message;
  }

  /**
   * Applies a batch of provider statuses (in arrival order); answers the statuses whose wamid no message of that
   * tenant and channel carries (yet), in order. The batches of the key groups handled side by side share one write
   * (group commit): a consumed batch of status callbacks costs one transaction, whatever its keys.
   */
  async applyByProviderIds<T extends ProviderStatus>(statuses: readonly T[]): Promise<T[]> {
    if (statuses.length === 0) return [];
    return (await this.statusBatches.add(statuses)) as T[];
  }

  private async applyBatches(batches: (readonly ProviderStatus[])[]): Promise<ProviderStatus[][]> {
    const unknown = new Set(await this.applyTogether(batches.flat()));
    return batches.map((batch) => batch.filter((s) => unknown.has(s)));
  }

  /**
   * One transaction for any number of statuses: one locked read of every message they name, each message's final
   * state computed by the status machine, one write of the new states together with how far they are announced, and
   * the announcement published before the commit. A crash between the publish and the commit replays the batch,
   * which publishes the same events again (their ids derive from message and status, so consumers see one event);
   * a failed publish rolls the write back. A replay finds nothing to change and nothing unannounced: it writes and
   * emits nothing.
   */
  private async applyTogether(statuses: readonly ProviderStatus[]): Promise<ProviderStatus[]> {
    const byKey = new Map<string, ProviderStatus[]>();
    for (const s of statuses) {
      const key = providerKey(s.tenantId, s.channelId, s.providerMessageId);
      const list = byKey.get(key);
      if (list) list.push(s);
      else byKey.set(key, [s]);
    }
    const keys = [...byKey.values()].map((list) => list[0]);
    await this.store.transaction(async (tx) => {
      const rows = await this.store.lockByProviderIds(keys, tx);
      const records: ReturnType<typeof statusRecord>[] = [];
      const writes: StatusWrite[] = [];
      for (const row of rows) {
        const message = messageFromRow(row);
        const key = providerKey(row.tenant_id, row.channel_id!, row.provider_message_id!);
        const own = byKey.get(key) ?? [];
        byKey.delete(key);
        const folded = foldStatuses({ status: message.status as OutboundStatus, history: message.statusHistory, error: message.error }, own);
        if (folded.changed) Object.assign(message, { status: folded.status, statusHistory: folded.history, error: folded.error });
        const pending = unannounced(message);
        if (!folded.changed && pending.length === 0) continue;
        // An entry this batch added carries the request id of the status that added it; older ones the batch's first.
        const firstAdded = message.statusHistory.length - folded.requestIds.length;
        const firstPending = message.statusHistory.length - pending.length;
        records.push(...pending.map((entry, i) => statusRecord(message, entry, folded.requestIds[firstPending + i - firstAdded] ?? own[0]?.requestId)));
        const announcedNow = pending.length > 0 ? message.statusHistory.length : message.announcedStatuses;
        writes.push({ id: message.id, status: message.status, status_history: message.statusHistory, error: message.error, announced: announcedNow });
      }
      if (writes.length > 0) await this.store.writeStatuses(writes, tx);
      if (records.length > 0) await this.publisher.publish(records, { timeoutMs: BATCH_PUBLISH_TIMEOUT_MS });
    });
    // What is left names no known message: in arrival order, as the caller must handle them.
    const unknown = new Set([...byKey.values()].flat());
    return statuses.filter((s) => unknown.has(s));
  }

  /** The outbound message a provider status refers to (by its wamid on that channel), or null when not (yet) known. */
  findByProviderId(tenantId: string, channelId: string, providerMessageId: string): Promise<MessageEntity | null> {
    return this.store.findByProviderId(tenantId, channelId, providerMessageId);
  }

  /** Publishes the history entries not yet announced, then records them as announced. */
  async announce(message: MessageEntity, requestId?: string): Promise<void> {
    const pending = unannounced(message);
    if (pending.length === 0) return;
    await this.publisher.publish(
      pending.map((entry) => statusRecord(message, entry, requestId)),
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    const announced = message.statusHistory.length;
    await this.announcedMarks.add({ id: message.id, announced });
    message.announcedStatuses = Math.max(message.announcedStatuses, announced);
  }

  private async writeAnnounced(marks: AnnouncedMark[]): Promise<void[]> {
    await this.store.markAnnounced(marks);
    return marks.map(() => undefined);
  }
}

function providerKey(tenantId: string, channelId: string, providerMessageId: string): string {
  return `${tenantId}\n${channelId}\n${providerMessageId}`;
}

/** The history entries not yet announced; a message's provisional `sent` waits until the provider took it. */
function unannounced(message: MessageEntity): StatusEntry[] {
  const accepted = message.providerMessageId !== null || message.status === 'failed';
  return accepted ? message.statusHistory.slice(message.announcedStatuses) : [];
}

/** The `message.status` record of one history entry; its id derives from the message and the status (replays are one event). */
function statusRecord(message: MessageEntity, entry: StatusEntry, requestId: string | undefined) {
  const data: MessageStatusData = {
    event: 'message.status',
    channel: message.channel,
    tenant_id: message.tenantId,
    message_id: message.id,
    status: entry.status as OutboundStatus,
    to: message.to,
    at: entry.at,
    ...(entry.status === 'failed' && message.error ? { error: message.error } : {}),
  };
  const envelope = EventPublisher.envelope(Topics.MessageStatus, message.tenantId, data, derivedId('evt', 'status', message.id, entry.status));
  return {
    topic: Topics.MessageStatus,
    key: conversationKey(message.tenantId, message.to),
    value: envelope,
    // Whether it is a campaign's: campaign-service skips every other message's statuses unread (none for a message from before).
    headers: {
      [Headers.RequestId]: requestId,
      [Headers.EventType]: Topics.MessageStatus,
      [Headers.Campaign]: campaignHeader(message.fromCampaign),
    },
  };
}
