import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, OutboundStatus } from '@parley/contracts';
import { DataSource } from 'typeorm';
import type { IncomingStatus } from './status-machine';

/** A status parked for a wamid no message carried when it came. */
export interface ParkedStatus {
  status: OutboundStatus;
  at: string;
  error: MessageError | null;
  request_id: string | null;
}

/** A wamid on a channel (the channel id is the tenant-scoped key of parked statuses). */
export interface ParkedKey {
  channelId: string;
  providerMessageId: string;
}

/** The SQL of `pending_statuses`, keyed by channel and wamid (PendingStatusesService decides when they apply). */
@Injectable()
export class PendingStatusesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Parks a status until `ttlMs` from now; a second park of the same status is a no-op. */
  async park(channelId: string, providerMessageId: string, incoming: IncomingStatus, requestId: string | null, ttlMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO pending_statuses (channel_id, provider_message_id, status, at, error, request_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + ($7 || ' milliseconds')::interval) ON CONFLICT DO NOTHING`,
      [channelId, providerMessageId, incoming.status, incoming.at, incoming.error ? JSON.stringify(incoming.error) : null, requestId, String(ttlMs)],
    );
  }

  /** The statuses parked for each key (in the keys' order), in one statement. */
  async findMany(keys: readonly ParkedKey[]): Promise<ParkedStatus[][]> {
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

  async remove(channelId: string, providerMessageId: string, status: OutboundStatus): Promise<void> {
    await this.db.query(`DELETE FROM pending_statuses WHERE channel_id = $1 AND provider_message_id = $2 AND status = $3`, [channelId, providerMessageId, status]);
  }

  async count(channelId: string, providerMessageId: string): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS n FROM pending_statuses WHERE channel_id = $1 AND provider_message_id = $2`, [channelId, providerMessageId])) as {
      n: number;
    }[];
    return row.n;
  }

  /** Removes parked statuses past their expiry (of every tenant); answers how many. */
  async expire(): Promise<number> {
    const result = (await this.db.query(`DELETE FROM pending_statuses WHERE expires_at < now() RETURNING provider_message_id`)) as [unknown[], number] | unknown[];
    return Array.isArray(result[0]) ? (result as [unknown[], number])[1] : result.length;
  }
}
