import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** How long a claim holds: a worker that died mid-send releases its rows after this (they are sent again). */
export const CLAIM_MS = 30_000;

export interface QueuedSend {
  messageId: string;
  tenantId: string;
  /** The customer: sends of one conversation stay in order. */
  recipient: string;
  /** The channel the message named (agent replies), else null: `from` or the tenant's default decides. */
  channelId: string | null;
  /** The send slot this row reserved already (it must not go out before it), else null. */
  slotAt: Date | null;
  /** Names this claim: every change a worker makes to the row requires it, so a lapsed claim changes nothing. */
  claimToken: string;
  /** When a provider call whose outcome is unknown started (it may have been taken), else null. */
  attemptStartedAt: Date | null;
  /** The request that caused the send (logs, events). */
  requestId: string | null;
}

interface ClaimedRow {
  message_id: string;
  tenant_id: string;
  recipient: string;
  channel_id: string | null;
  slot_at: Date | null;
  claim_token: string;
  attempt_started_at: Date | null;
  request_id: string | null;
  seq: string;
}

/** TypeORM answers UPDATE … RETURNING as [rows, affected]. */
function returned<T>(result: unknown): T[] {
  const rows = result as T[] | [T[], number];
  return (Array.isArray(rows[0]) ? rows[0] : rows) as T[];
}

const ms = (value: number) => String(Math.max(0, Math.ceil(value)));

/**
 * The durable send queue (`send_queue`): one row per outbound message still to hand to its provider. Rows are
 * claimed with SKIP LOCKED (many workers, many instances) and a lease, so a crashed worker's rows come back.
 */
@Injectable()
export class SendQueue {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Enqueues inside the caller's transaction (the one that recorded the message); a second enqueue is a no-op. */
  async enqueue(tx: EntityManager, tenantId: string, messageId: string, recipient: string, channelId: string | null, requestId: string | null = null): Promise<void> {
    await tx.query(
      `INSERT INTO send_queue (message_id, tenant_id, recipient, channel_id, request_id, due_at) VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (message_id) DO NOTHING`,
      [messageId, tenantId, recipient, channelId, requestId],
    );
  }

  /** Claims up to `limit` due rows, oldest first. */
  async claim(limit: number): Promise<QueuedSend[]> {
    const rows = returned<ClaimedRow>(
      await this.db.query(
        `UPDATE send_queue q SET claimed_until = now() + ($2 || ' milliseconds')::interval, claim_token = gen_random_uuid()
         FROM (SELECT message_id FROM send_queue
               WHERE due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
               ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED) due
         WHERE q.message_id = due.message_id
         RETURNING q.message_id, q.tenant_id, q.recipient, q.channel_id, q.slot_at, q.claim_token, q.attempt_started_at, q.request_id, q.seq`,
        [limit, String(CLAIM_MS)],
      ),
    );
    return rows
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((r) => ({
        messageId: r.message_id,
        tenantId: r.tenant_id,
        recipient: r.recipient,
        channelId: r.channel_id,
        slotAt: r.slot_at,
        claimToken: r.claim_token,
        attemptStartedAt: r.attempt_started_at,
        requestId: r.request_id,
      }));
  }

  /**
   * Records that a provider call is about to start, renewing the claim so nobody else can take the row meanwhile.
   * False when the claim was lost (it lapsed and another worker holds the row): the caller must not send.
   */
  async startAttempt(item: QueuedSend): Promise<boolean> {
    const rows = returned<{ message_id: string }>(
      await this.db.query(
        `UPDATE send_queue SET attempt_started_at = now(), claimed_until = now() + ($3 || ' milliseconds')::interval
         WHERE message_id = $1 AND claim_token = $2 RETURNING message_id`,
        [item.messageId, item.claimToken, String(CLAIM_MS)],
      ),
    );
    return rows.length > 0;
  }

  /** Releases a claimed row to come due again after `delayMs`; it takes a new send slot then. A known outcome ends the attempt. */
  async reschedule(item: QueuedSend, delayMs: number): Promise<void> {
    await this.db.query(
      `UPDATE send_queue SET due_at = now() + ($3 || ' milliseconds')::interval, claimed_until = NULL, slot_at = NULL, attempt_started_at = NULL
       WHERE message_id = $1 AND claim_token = $2`,
      [item.messageId, item.claimToken, ms(delayMs)],
    );
  }

  /** Releases a row whose last attempt has an unknown outcome until `delayMs` from now, keeping that attempt on record. */
  async awaitOutcome(item: QueuedSend, delayMs: number): Promise<void> {
    await this.db.query(`UPDATE send_queue SET due_at = now() + ($3 || ' milliseconds')::interval, claimed_until = NULL, slot_at = NULL WHERE message_id = $1 AND claim_token = $2`, [
      item.messageId,
      item.claimToken,
      ms(delayMs),
    ]);
  }

  /** Releases a claimed row until shortly (`leadMs`) before the send slot it reserved, `slotInMs` from now. */
  async parkUntilSlot(item: QueuedSend, slotInMs: number, leadMs: number): Promise<void> {
    await this.db.query(
      `UPDATE send_queue SET slot_at = now() + ($3 || ' milliseconds')::interval, due_at = now() + ($4 || ' milliseconds')::interval, claimed_until = NULL
       WHERE message_id = $1 AND claim_token = $2`,
      [item.messageId, item.claimToken, ms(slotInMs), ms(slotInMs - leadMs)],
    );
  }

  /** The message was accepted or failed for good. */
  async remove(tenantId: string, messageId: string, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.query(`DELETE FROM send_queue WHERE message_id = $1 AND tenant_id = $2`, [messageId, tenantId]);
  }

  /** Rows waiting (due or not): for metrics and tests. */
  async depth(): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS n FROM send_queue`)) as { n: number }[];
    return row.n;
  }
}
