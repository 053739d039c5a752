import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { NormalisedInbound } from './normalise';

/** A customer's media message whose file is still to be downloaded. */
export interface PendingDownload {
  tenantId: string;
  channelId: string;
  messageId: string;
  inbound: NormalisedInbound;
  receivedAt: string;
  requestId?: string;
}

export interface ClaimedDownload extends PendingDownload {
  attempts: number;
}

/** How long a claimed download is this worker's before another may take it (a crashed worker's row comes back). */
const CLAIM_MS = 120_000;

/**
 * The durable queue of inbound media downloads (`media_downloads`), worked across tenants: rows are claimed with
 * SKIP LOCKED and a lease, then settled by message id.
 */
@Injectable()
export class MediaDownloadsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Queues downloads, once per message (a redelivered notification finds its row there already). Then signal MediaDownloadsQueued. */
  async enqueue(items: PendingDownload[]): Promise<void> {
    await this.db.query(
      `INSERT INTO media_downloads (message_id, tenant_id, channel_id, inbound, received_at, request_id)
       SELECT x.message_id, x.tenant_id, x.channel_id, x.inbound, x.received_at, x.request_id
       FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, tenant_id text, channel_id text, inbound jsonb, received_at timestamptz, request_id text)
       ON CONFLICT (message_id) DO NOTHING`,
      [JSON.stringify(items.map((i) => ({ message_id: i.messageId, tenant_id: i.tenantId, channel_id: i.channelId, inbound: i.inbound, received_at: i.receivedAt, request_id: i.requestId ?? null })))],
    );
  }

  async claim(limit: number): Promise<ClaimedDownload[]> {
    const [rows] = (await this.db.query(
      `UPDATE media_downloads d SET claimed_until = now() + ($2 || ' milliseconds')::interval, attempts = d.attempts + 1
       FROM (SELECT message_id FROM media_downloads WHERE due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
             ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
       WHERE d.message_id = due.message_id
       RETURNING d.message_id, d.tenant_id, d.channel_id, d.inbound, d.received_at, d.request_id, d.attempts`,
      [limit, String(CLAIM_MS)],
    )) as [{ message_id: string; tenant_id: string; channel_id: string; inbound: NormalisedInbound; received_at: Date; request_id: string | null; attempts: number }[], number];
    return rows.map((r) => ({
      messageId: r.message_id,
      tenantId: r.tenant_id,
      channelId: r.channel_id,
      inbound: r.inbound,
      receivedAt: r.received_at.toISOString(),
      requestId: r.request_id ?? undefined,
      attempts: r.attempts,
    }));
  }

  async retryLater(messageId: string, delayMs: number, error: string): Promise<void> {
    await this.db.query(`UPDATE media_downloads SET due_at = now() + ($2 || ' milliseconds')::interval, claimed_until = NULL, last_error = $3 WHERE message_id = $1`, [
      messageId,
      String(Math.round(delayMs)),
      error.slice(0, 500),
    ]);
  }

  async done(messageId: string): Promise<void> {
    await this.db.query(`DELETE FROM media_downloads WHERE message_id = $1`, [messageId]);
  }

  /** Milliseconds until the next row is due; null when none waits. */
  async nextDueInMs(): Promise<number | null> {
    const [row] = (await this.db.query(`SELECT EXTRACT(EPOCH FROM (min(due_at) - now())) * 1000 AS ms FROM media_downloads WHERE claimed_until IS NULL OR claimed_until < now()`)) as {
      ms: string | null;
    }[];
    return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
  }
}
