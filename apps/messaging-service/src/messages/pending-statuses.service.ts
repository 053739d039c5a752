import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, OutboundStatus } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { GroupCommit } from '@parley/service-kit';
import type { MessageEntity } from './message.entity';
import { MessageStatusService } from './message-status.service';
import type { IncomingStatus } from './status-machine';

/** How long a parked status waits for its message: providers redeliver for up to 7 days, so no longer than that. */
export const PENDING_STATUS_TTL_MS = 7 * 24 * 3600_000;
/** How often expired parked statuses are removed. */
const SWEEP_EVERY_MS = 60_000;

/** A status parked for a wamid no message carried when it came. */
export interface ParkedStatus {
  status: OutboundStatus;
  at: string;
  error: MessageError | null;
  request_id: string | null;
}

/**
 * Statuses for a wamid no message carries yet. A status can arrive before the send that got its wamid has recorded
 * it; parking it (instead of retrying the notification) keeps its partition moving. Whoever commits second applies
 * it: the status side re-reads the message after parking, the send side reads the parked statuses after recording
 * the wamid, so a status is never stranded between the two. Statuses that never find their message (sent by other
 * software on the same number) expire.
 */
@Injectable()
export class PendingStatusesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PendingStatusesService.name);
  private sweeper: NodeJS.Timeout | null = null;
  /** Every accepted send looks for parked statuses, nearly always finding none: concurrent looks share one query. */
  private readonly lookups = new GroupCommit<{ channelId: string; providerMessageId: string }, ParkedStatus[]>((keys) => this.findParked(keys));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statuses: MessageStatusService,
  ) {}

  /** Parks a status for `providerMessageId` on the channel, then applies it at once if its message appeared meanwhile. */
  async park(tenantId: string, channelId: string, providerMessageId: string, incoming: IncomingStatus, requestId?: string): Promise<void> {
    await this.db.query(
      `INSERT INTO pending_statuses (channel_id, provider_message_id, status, at, error, request_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + ($7 || ' milliseconds')::interval) ON CONFLICT DO NOTHING`,
      [channelId, providerMessageId, incoming.status, incoming.at, incoming.error ? JSON.stringify(incoming.error) : null, requestId ?? null, String(PENDING_STATUS_TTL_MS)],
    );
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
      await this.db.query(`DELETE FROM pending_statuses WHERE channel_id = $1 AND provider_message_id = $2 AND status = $3`, [message.channelId, message.providerMessageId, row.status]);
    }
  }

  private async findParked(keys: { channelId: string; providerMessageId: string }[]): Promise<ParkedStatus[][]> {
    const rows = (await this.db.query(
      `SELECT x.i, p.status, p.at, p.error, p.request_id
       FROM jsonb_to_recordset($1::jsonb) AS x(i int, channel_id text, provider_message_id text)
       JOIN pending_statuses p ON p.channel_id = x.channel_id AND p.provider_message_id = x.provider_message_id`,
      [JSON.stringify(keys.map((k, i) => ({ i, channel_id: k.channelId, provider_message_id: k.providerMessageId })))],
    )) as (ParkedStatus & { i: number })[];
    const found: ParkedStatus[][] = keys.map(() => []);
    for (const { i, ...row } of rows) found[i].push(row);
    return found;
  }

  /** Parked statuses (for tests and metrics). */
  async count(channelId: string, providerMessageId: string): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS n FROM pending_statuses WHERE channel_id = $1 AND provider_message_id = $2`, [channelId, providerMessageId])) as {
      n: number;
    }[];
    return row.n;
  }

  /** Removes parked statuses past their expiry; returns how many. */
  async expire(): Promise<number> {
    const result = (await this.db.query(`DELETE FROM pending_statuses WHERE expires_at < now() RETURNING provider_message_id`)) as [unknown[], number] | unknown[];
    const removed = Array.isArray(result[0]) ? (result as [unknown[], number])[1] : result.length;
    if (removed > 0) this.logger.warn(`expired ${removed} parked status(es) whose message never appeared`);
    return removed;
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.expire().catch((err: unknown) => this.logger.warn(`expiring parked statuses failed: ${String(err)}`)), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
