import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageOutboundData, RichOutboundContent } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { normaliseAddress } from '../common/phone';
import { GroupCommit } from '@parley/service-kit';
import { SendQueue } from '../sending/send-queue';
import { MessageEntity, type StoredTemplate } from './message.entity';
import { MessageStatusService } from './message-status.service';
import { outboundBody } from './messages.mapper';

/** A `message_outbound` not seen before, as the insert takes it (a plain row: no entity to build per message). */
interface NewOutbound {
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

/** One `message.outbound` to take. */
export interface OutboundSend {
  tenantId: string;
  data: MessageOutboundData;
  requestId?: string;
}

/** Malformed `message.outbound` data: a poison message for the dead-letter topic, never a send. */
export class InvalidOutboundMessageError extends Error {
  override name = 'InvalidOutboundMessageError';
}

/**
 * Takes `message.outbound` messages: records each (readable at once, status `sent`) and enqueues it on the durable
 * send queue in the same transaction; the SendQueueWorker hands it to the provider at its number's pace. Nothing
 * here waits for a provider. Idempotent on `message_id`: a message already accepted or failed is never queued again.
 */
@Injectable()
export class OutboundService {
  private readonly logger = new Logger(OutboundService.name);
  private readonly newMessages = new GroupCommit<NewOutbound, boolean>((batch) => this.writeNew(batch));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly statuses: MessageStatusService,
    private readonly queue: SendQueue,
  ) {}

  send(tenantId: string, data: MessageOutboundData, requestId?: string): Promise<void> {
    return this.sendMany([{ tenantId, data, requestId }]);
  }

  /**
   * `send` for several messages (one conversation's, in order): the new ones go to the insert together, as one
   * statement in their order; any seen before are then settled one by one as `send` would.
   */
  async sendMany(sends: readonly OutboundSend[]): Promise<void> {
    for (const { tenantId, data } of sends) assertOutbound(tenantId, data);
    const recorded = await Promise.all(sends.map(({ tenantId, data, requestId }) => this.recordNew(tenantId, data, requestId)));
    for (const [i, { tenantId, data, requestId }] of sends.entries()) if (!recorded[i]) await this.settleSeen(tenantId, data, requestId);
  }

  private async settleSeen(tenantId: string, data: MessageOutboundData, requestId?: string): Promise<void> {
    // Seen before (a redelivery or a re-publish; writeNew's insert found the row): make sure it is queued unless
    // done, and finish its announcements.
    const message = await this.db.transaction(async (tx) => {
      const repo = tx.getRepository(MessageEntity);
      const row = await repo.findOneOrFail({ where: { id: data.message_id }, lock: { mode: 'pessimistic_write' } });
      const ours = row.tenantId === tenantId && row.direction === 'outbound';
      if (ours && row.providerMessageId === null && row.status !== 'failed') await this.queue.enqueue(tx, tenantId, row.id, row.to, data.channel_id ?? null, requestId ?? null);
      return row;
    });
    if (message.tenantId !== tenantId || message.direction !== 'outbound') {
      this.logger.warn(`message.outbound ${data.message_id} collides with a message of another tenant or direction; ignored`);
      return;
    }
    // Already handed to the provider (or failed for good): finish any announcement a crash interrupted.
    if (message.providerMessageId !== null || message.status === 'failed') await this.statuses.announce(message, requestId);
  }

  /**
   * The common case, a message not seen before, in one statement (atomic): record it and queue it. Messages consumed
   * side by side (the groups of every partition's batch) share that statement (group commit): the consumer's rate
   * bounds how fast a burst reaches the send queue. False when a message with this id exists already.
   */
  private recordNew(tenantId: string, data: MessageOutboundData, requestId?: string): Promise<boolean> {
    return this.newMessages.add({
      id: data.message_id,
      tenant_id: tenantId,
      from: data.from ? normaliseAddress(data.from) : null,
      to: normaliseAddress(data.to),
      type: data.content.type,
      body: outboundBody(data.content),
      template: data.content.type === 'template' ? (data.content.template as StoredTemplate) : null,
      content: data.content.type === 'text' || data.content.type === 'template' ? null : data.content,
      status: 'sent',
      status_history: [{ status: 'sent', at: data.accepted_at }],
      channel: data.channel ?? 'whatsapp',
      subject: data.subject ?? null,
      html: data.html ?? null,
      channel_id: data.channel_id ?? null,
      request_id: requestId ?? null,
    });
  }

  private async writeNew(batch: NewOutbound[]): Promise<boolean[]> {
    const input = batch.map((row, i) => ({ i, ...row }));
    const rows = (await this.db.query(
      `WITH x AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, id text, tenant_id text, "from" text, "to" text, type text, body text, template jsonb, content jsonb,
           status text, status_history jsonb, channel text, subject text, html text, channel_id text, request_id text)),
       message AS (
         INSERT INTO messages (id, tenant_id, direction, "from", "to", type, body, template, content, status, status_history, channel, subject, html)
         SELECT x.id, x.tenant_id, 'outbound', COALESCE(x."from", sender.phone_number), x."to", x.type, x.body, x.template, x.content, x.status, x.status_history,
           COALESCE(named.kind, x.channel), COALESCE(x.subject, thread.subject), x.html
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
    const queued = new Set(rows.map((r) => r.message_id));
    return batch.map((n) => queued.has(n.id));
  }

}

/** The gateway validated the send; anything else reaching here is a bug upstream, not something to send. */
function assertOutbound(tenantId: string, data: MessageOutboundData): void {
  const content = data?.content;
  const ok =
    tenantId.length > 0 &&
    typeof data?.message_id === 'string' &&
    data.message_id.length > 0 &&
    typeof data.to === 'string' &&
    data.to.length > 0 &&
    typeof data.accepted_at === 'string' &&
    !Number.isNaN(Date.parse(data.accepted_at)) &&
    ((content?.type === 'text' && typeof content.text === 'string') ||
      (content?.type === 'template' && typeof content.template?.name === 'string' && typeof content.template.language?.code === 'string') ||
      isRichContent(content));
  if (!ok) throw new InvalidOutboundMessageError(`message.outbound ${String(data?.message_id)} is malformed`);
}

/** A media, location or interactive content with the part its type needs (the gateway checked the rest). */
function isRichContent(content: MessageOutboundData['content'] | undefined): boolean {
  switch (content?.type) {
    case 'image':
    case 'document':
    case 'audio':
    case 'video':
      return typeof content.media?.media_id === 'string';
    case 'location':
      return typeof content.location?.latitude === 'number' && typeof content.location.longitude === 'number';
    case 'interactive':
      return typeof content.interactive?.body === 'string';
    default:
      return false;
  }
}
