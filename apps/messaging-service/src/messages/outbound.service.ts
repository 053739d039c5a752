import { Injectable, Logger } from '@nestjs/common';
import type { MessageOutboundData } from '@parley/contracts';
import { normaliseAddress } from '../common/phone';
import { GroupCommit } from '@parley/service-kit';
import { SendQueueStore } from '../sending/send-queue.store';
import type { StoredTemplate } from './message.entity';
import { MessageStatusService } from './message-status.service';
import { outboundBody } from './messages.mapper';
import { OutboundStore, type NewOutbound } from './outbound.store';

/** One `message.outbound` to take. */
export interface OutboundSend {
  tenantId: string;
  data: MessageOutboundData;
  requestId?: string;
  /** From the record's `campaign` header (null: not said); its `message.status` records say it on. */
  fromCampaign?: boolean | null;
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
    private readonly store: OutboundStore,
    private readonly statuses: MessageStatusService,
    private readonly queue: SendQueueStore,
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
    const recorded = await Promise.all(sends.map(({ tenantId, data, requestId, fromCampaign }) => this.recordNew(tenantId, data, requestId, fromCampaign ?? null)));
    for (const [i, { tenantId, data, requestId }] of sends.entries()) if (!recorded[i]) await this.settleSeen(tenantId, data, requestId);
  }

  private async settleSeen(tenantId: string, data: MessageOutboundData, requestId?: string): Promise<void> {
    // Seen before (a redelivery or a re-publish; writeNew's insert found the row): make sure it is queued unless
    // done, and finish its announcements.
    const message = await this.store.transaction(async (tx) => {
      const row = await this.store.lockById(data.message_id, tx);
      const ours = row.tenantId === tenantId && row.direction === 'outbound';
      if (ours && row.providerMessageId === null && row.status !== 'failed') await this.queue.enqueue(tenantId, row.id, row.to, data.channel_id ?? null, requestId ?? null, tx);
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
  private recordNew(tenantId: string, data: MessageOutboundData, requestId: string | undefined, fromCampaign: boolean | null): Promise<boolean> {
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
      from_campaign: fromCampaign,
    });
  }

  private async writeNew(batch: NewOutbound[]): Promise<boolean[]> {
    const queued = new Set(await this.store.insertAndQueue(batch));
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
