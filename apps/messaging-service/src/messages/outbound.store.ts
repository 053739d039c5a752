import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RichOutboundContent } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { MessageEntity, type StoredTemplate } from './message.entity';

/** A `message_outbound` not seen before, as the insert takes it (a plain row: no entity to build per message). */
export interface NewOutbound {
  id: string;
  tenant_id: string;
  from: string | null;
  to: string;
  type: string;
  body: string;
  template: StoredTemplate | null;
  content: RichOutboundContent | null;
  status: 'sent';
  status_history: { status: 'sent'; at: string }[];
  channel: string;
  subject: string | null;
  html: string | null;
  channel_id: string | null;
  request_id: string | null;
  from_campaign: boolean | null;
}

/**
 * The number a send without `from` goes out from, as the send worker will choose it: the channel it names (an agent's
 * reply, on the conversation's channel), else the tenant's default. Written at intake, so the record shows its sending
 * number from the start (CONTRACT.md §4), also when it fails before reaching a provider, and the send goes out from
 * the number that was the default when it was accepted. None when no channel is connected (the send then fails with
 * `no_channel`). `x` is the row being inserted.
 */
const SENDING_NUMBER = `
  SELECT c.phone_number FROM channels c
  WHERE c.tenant_id = x.tenant_id AND c.status = 'connected' AND CASE WHEN x.channel_id IS NULL THEN c.is_default AND c.kind = x.channel ELSE c.id = x.channel_id END
  LIMIT 1`;

/**
 * An email reply on a conversation's channel (an agent's, or a person's from the inbox) carries no subject of its own:
 * it answers the customer's latest mail there, so it is "Re: <that subject>" and threads in the customer's mail client.
 */
const REPLY_SUBJECT = `
  SELECT 'Re: ' || regexp_replace(m.subject, '^(re:\\s*)+', '', 'i') AS subject FROM messages m
  WHERE m.tenant_id = x.tenant_id AND m.channel_id = x.channel_id AND m.direction = 'inbound' AND m."from" = x."to" AND m.subject IS NOT NULL
  ORDER BY m.seq DESC LIMIT 1`;

/** The SQL of taking outbound messages (OutboundService keeps what a redelivery or a colliding id means). */
@Injectable()
export class OutboundStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Records new messages (of any tenants) in their order and queues each on the send queue, in one statement (atomic).
   * Answers the ids it queued: a message whose id exists already is neither recorded nor queued.
   */
  async insertAndQueue(batch: readonly NewOutbound[]): Promise<string[]> {
    const input = batch.map((row, i) => ({ i, ...row }));
    const rows = (await this.db.query(
      `WITH x AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, id text, tenant_id text, "from" text, "to" text, type text, body text, template jsonb, content jsonb,
           status text, status_history jsonb, channel text, subject text, html text, channel_id text, request_id text,
           from_campaign boolean)),
       message AS (
         INSERT INTO messages (id, tenant_id, direction, "from", "to", type, body, template, content, status, status_history, channel, subject, html, from_campaign)
         SELECT x.id, x.tenant_id, 'outbound', COALESCE(x."from", sender.phone_number), x."to", x.type, x.body, x.template, x.content, x.status, x.status_history,
           COALESCE(named.kind, x.channel), COALESCE(x.subject, thread.subject), x.html, x.from_campaign
         FROM x LEFT JOIN LATERAL (${SENDING_NUMBER}) sender ON true
         LEFT JOIN channels named ON named.id = x.channel_id AND named.tenant_id = x.tenant_id
         LEFT JOIN LATERAL (${REPLY_SUBJECT}) thread ON named.kind = 'email'
         ORDER BY x.i
         ON CONFLICT (id) DO NOTHING RETURNING id)
       INSERT INTO send_queue (message_id, tenant_id, recipient, channel_id, request_id, due_at)
       SELECT x.id, x.tenant_id, x."to", x.channel_id, x.request_id, now() FROM x JOIN message ON message.id = x.id ORDER BY x.i
       ON CONFLICT (message_id) DO NOTHING RETURNING message_id`,
      [JSON.stringify(input)],
    )) as { message_id: string }[];
    return rows.map((r) => r.message_id);
  }

  /**
   * The message with this id, whoever's (a redelivered send finds its own; an id colliding with another tenant's or
   * an inbound message is the caller's to refuse), locked until `tx` ends.
   */
  lockById(messageId: string, tx: EntityManager): Promise<MessageEntity> {
    return tx.getRepository(MessageEntity).findOneOrFail({ where: { id: messageId }, lock: { mode: 'pessimistic_write' } });
  }
}
