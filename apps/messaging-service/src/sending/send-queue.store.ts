import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { GroupCommit } from '@parley/service-kit';
import type { MessageEntity } from '../messages/message.entity';

/** The channel the send queue NOTIFYs when rows are queued or their due time moves (migration SendQueueNotify). */
export const SEND_QUEUE_CHANNEL = 'messaging_send_queue';

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
  /** The message as it was when the row was claimed (read in the claim); null when it is gone or not this tenant's outbound message. */
  message: SendableMessage | null;
}

/** What sending needs of the queued message. */
export type SendableMessage = Pick<MessageEntity, 'id' | 'tenantId' | 'channel' | 'from' | 'to' | 'type' | 'body' | 'subject' | 'html' | 'template' | 'content' | 'status' | 'providerMessageId' | 'sendAttempts'>;

/** A provider call about to start: the claimed row and the channel it goes out on. */
export interface AttemptStart {
  item: QueuedSend;
  channelId: string;
  phoneNumber: string;
}

/** `lost`: the claim lapsed (another worker holds the row); `done`: accepted or failed meanwhile; else the attempt number. */
export type AttemptOutcome = 'lost' | 'done' | number;

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
  m_tenant_id: string | null;
  m_direction: string | null;
  m_from: string | null;
  m_to: string;
  m_type: MessageEntity['type'];
  m_body: string;
  m_template: MessageEntity['template'];
  m_content: MessageEntity['content'];
  m_channel: MessageEntity['channel'] | null;
  m_subject: string | null;
  m_html: string | null;
  m_status: MessageEntity['status'];
  m_provider_message_id: string | null;
  m_send_attempts: number;
}

const ms = (value: number) => String(Math.max(0, Math.ceil(value)));

/** Claimed rows in queue order, each with its message when it is the tenant's outbound message. */
function toQueuedSends(rows: ClaimedRow[]): QueuedSend[] {
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
      message:
        r.m_tenant_id === r.tenant_id && r.m_direction === 'outbound'
          ? {
              id: r.message_id,
              tenantId: r.tenant_id,
              from: r.m_from,
              to: r.m_to,
              type: r.m_type,
              body: r.m_body,
              template: r.m_template,
              content: r.m_content,
              channel: r.m_channel ?? 'whatsapp',
              subject: r.m_subject,
              html: r.m_html,
              status: r.m_status,
              providerMessageId: r.m_provider_message_id,
              sendAttempts: r.m_send_attempts,
            }
          : null,
    }));
}

/**
 * The durable send queue (`send_queue`): one row per outbound message still to hand to its provider. Rows are
 * claimed with SKIP LOCKED (many workers, many instances) and a lease, so a crashed worker's rows come back. The
 * worker claims across tenants; a claimed row is then changed through its claim (message id and claim token), which
 * a lapsed claim no longer matches.
 */
@Injectable()
export class SendQueueStore {
  private readonly attemptStarts = new GroupCommit<AttemptStart, AttemptOutcome>((starts) => this.writeAttemptStarts(starts));

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Enqueues inside the caller's transaction (the one that recorded the message); a second enqueue is a no-op. */
  async enqueue(tenantId: string, messageId: string, recipient: string, channelId: string | null, requestId: string | null, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO send_queue (message_id, tenant_id, recipient, channel_id, request_id, due_at) VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (message_id) DO NOTHING`,
      [messageId, tenantId, recipient, channelId, requestId],
    );
  }

  /**
   * Claims up to `limit` due rows, oldest first, each with its message, and says in how many milliseconds the next
   * row can be claimed (due and not claimed, or its claim lapsed; the rows just claimed count from their new lease;
   * negative when one can now, null when the queue is empty), all in one round trip.
   */
  async claim(limit: number): Promise<{ items: QueuedSend[]; nextDueInMs: number | null }> {
    const rows = (await this.db.query(
      `WITH due AS (
         SELECT message_id FROM send_queue
         WHERE due_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE send_queue q SET claimed_until = now() + ($2 || ' milliseconds')::interval, claim_token = gen_random_uuid()
         FROM due LEFT JOIN messages m ON m.id = due.message_id
         WHERE q.message_id = due.message_id
         RETURNING q.message_id, q.tenant_id, q.recipient, q.channel_id, q.slot_at, q.claim_token, q.attempt_started_at, q.request_id, q.seq,
           m.tenant_id AS m_tenant_id, m.direction AS m_direction, m."from" AS m_from, m."to" AS m_to, m.type AS m_type, m.body AS m_body,
           m.template AS m_template, m.content AS m_content, m.channel AS m_channel, m.subject AS m_subject, m.html AS m_html, m.status AS m_status, m.provider_message_id AS m_provider_message_id, m.send_attempts AS m_send_attempts),
       next AS (
         SELECT (EXTRACT(EPOCH FROM LEAST(
           (SELECT min(GREATEST(s.due_at, s.claimed_until)) FROM send_queue s WHERE NOT EXISTS (SELECT 1 FROM due WHERE due.message_id = s.message_id)),
           (SELECT now() + ($2 || ' milliseconds')::interval FROM due LIMIT 1)) - now()) * 1000)::float8 AS next_due_ms)
       SELECT claimed.*, next.next_due_ms FROM next LEFT JOIN claimed ON true`,
      [limit, String(CLAIM_MS)],
    )) as (ClaimedRow & { next_due_ms: number | null })[];
    return { items: toQueuedSends(rows.filter((r) => r.message_id !== null)), nextDueInMs: rows[0]?.next_due_ms ?? null };
  }

  /**
   * A provider call is about to start: renews the claim (so nobody else takes the row meanwhile), records the attempt
   * and pins the channel on the message, atomically. Concurrent starts share one statement (group commit).
   */
  beginAttempt(start: AttemptStart): Promise<AttemptOutcome> {
    return this.attemptStarts.add(start);
  }

  private async writeAttemptStarts(starts: AttemptStart[]): Promise<AttemptOutcome[]> {
    const input = starts.map((s) => ({ message_id: s.item.messageId, claim_token: s.item.claimToken, tenant_id: s.item.tenantId, channel_id: s.channelId, phone_number: s.phoneNumber }));
    const rows = (await this.db.query(
      `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, claim_token uuid, tenant_id text, channel_id text, phone_number text)),
       started AS (
         UPDATE send_queue q SET attempt_started_at = now(), claimed_until = now() + ($2 || ' milliseconds')::interval
         FROM x WHERE q.message_id = x.message_id AND q.claim_token = x.claim_token
         RETURNING q.message_id, q.claim_token),
       counted AS (
         UPDATE messages m SET send_attempts = m.send_attempts + 1, channel_id = x.channel_id, "from" = x.phone_number, updated_at = now()
         FROM x JOIN started s ON s.message_id = x.message_id AND s.claim_token = x.claim_token
         WHERE m.id = x.message_id AND m.tenant_id = x.tenant_id AND m.provider_message_id IS NULL AND m.status <> 'failed'
         RETURNING m.id, m.send_attempts)
       SELECT s.message_id, s.claim_token, c.send_attempts FROM started s LEFT JOIN counted c ON c.id = s.message_id`,
      [JSON.stringify(input), String(CLAIM_MS)],
    )) as { message_id: string; claim_token: string; send_attempts: number | null }[];
    const outcomes = new Map(rows.map((r) => [`${r.message_id} ${r.claim_token}`, r.send_attempts === null ? ('done' as const) : r.send_attempts]));
    return starts.map((s) => outcomes.get(`${s.item.messageId} ${s.item.claimToken}`) ?? 'lost');
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
