import { Injectable, Logger } from '@nestjs/common';
import { GroupCommit } from '@parley/service-kit';
import type { MessageEntity } from './message.entity';
import { MessageStatusService } from './message-status.service';
import { PendingStatusesStore, type ParkedKey, type ParkedStatus } from './pending-statuses.store';
import type { IncomingStatus } from './status-machine';
import { WRITE_LINGER_MS } from '../database/write-linger';

/** How long a parked status waits for its message: providers redeliver for up to 7 days, so no longer than that. */
export const PENDING_STATUS_TTL_MS = 7 * 24 * 3600_000;

/**
 * Statuses for a wamid no message carries yet. A status can arrive before the send that got its wamid has recorded
 * it; parking it (instead of retrying the notification) keeps its partition moving. Whoever commits second applies
 * it: the status side re-reads the message after parking, the send side reads the parked statuses after recording
 * the wamid, so a status is never stranded between the two. Statuses that never find their message (sent by other
 * software on the same number) expire (ParkedStatusExpiry).
 */
@Injectable()
export class PendingStatusesService {
  private readonly logger = new Logger(PendingStatusesService.name);
  /** Every accepted send looks for parked statuses, nearly always finding none: concurrent looks share one query. */
  private readonly lookups = new GroupCommit<ParkedKey, ParkedStatus[]>((keys) => this.store.findMany(keys), { lingerMs: WRITE_LINGER_MS });

  constructor(
    private readonly store: PendingStatusesStore,
    private readonly statuses: MessageStatusService,
  ) {}

  /** Parks a status for `providerMessageId` on the channel, then applies it at once if its message appeared meanwhile. */
  async park(tenantId: string, channelId: string, providerMessageId: string, incoming: IncomingStatus, requestId?: string): Promise<void> {
    await this.store.park(channelId, providerMessageId, incoming, requestId ?? null, PENDING_STATUS_TTL_MS);
    const message = await this.statuses.findByProviderId(tenantId, channelId, providerMessageId);
    if (message) await this.applyParked(message);
  }

  /** Applies (and removes) the statuses parked for a message's wamid; called once the message carries it. */
  async applyParked(message: MessageEntity): Promise<void> {
    await this.applyFound(message, await this.parkedFor(message));
  }

  /** The statuses parked for a message's wamid; look only once the message's wamid is committed (see the class). */
  async parkedFor(message: MessageEntity): Promise<ParkedStatus[]> {
    if (!message.channelId || !message.providerMessageId) return [];
    return this.lookups.add({ channelId: message.channelId, providerMessageId: message.providerMessageId });
  }

  /** Applies (and removes) statuses `parkedFor` found for the message. */
  async applyFound(message: MessageEntity, rows: readonly ParkedStatus[]): Promise<void> {
    for (const row of rows) {
      // Applying is idempotent (the state machine ignores a repeat), so both sides applying one status is harmless.
      await this.statuses.apply(message.tenantId, message.id, { status: row.status, at: row.at, error: row.error ?? undefined }, row.request_id ?? undefined);
      await this.store.remove(message.channelId!, message.providerMessageId!, row.status);
    }
  }

  /** Parked statuses (for tests and metrics). */
  count(channelId: string, providerMessageId: string): Promise<number> {
    return this.store.count(channelId, providerMessageId);
  }

  /** Removes parked statuses past their expiry; returns how many. */
  async expire(): Promise<number> {
    const removed = await this.store.expire();
    if (removed > 0) this.logger.warn(`expired ${removed} parked status(es) whose message never appeared`);
    return removed;
  }
}
