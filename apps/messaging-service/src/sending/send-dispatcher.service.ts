import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, OutboundContent } from '@parley/contracts';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { ChannelsService, type SendingChannel } from '../channels/channels.service';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { CustomerWindowService, WINDOW_CLOSED } from '../messages/customer-window.service';
import { MessageEntity } from '../messages/message.entity';
import { MessageStatusService } from '../messages/message-status.service';
import { ProviderRegistry } from '../providers/provider-registry';
import { ProviderError } from '../providers/whatsapp-provider';
import { SendQueue, type QueuedSend } from './send-queue';
import { SendRateLimiter } from './send-rate-limiter';

/** Provider calls one message may take before a retryable error becomes its failure. */
export const MAX_PROVIDER_ATTEMPTS = 8;
/** Back-off of retryable provider errors: 500 ms doubling, at most a minute, with full jitter above half. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 60_000;

/** A reserved slot this close is waited for in-process; a later one parks the row until this long before it. */
export const SLOT_LEAD_MS = 250;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const NO_CHANNEL: MessageError = { code: 'no_channel', title: 'The tenant has no connected WhatsApp number' };
const SENDER_NOT_CONNECTED: MessageError = { code: 'no_channel', title: 'The sending WhatsApp number is not connected' };

const providerCalls = new Counter({
  name: 'messaging_provider_sends_total',
  help: 'WhatsApp provider send calls by provider and outcome',
  labelNames: ['provider', 'outcome'],
});
const repeatedSends = new Counter({
  name: 'messaging_repeated_sends_total',
  help: 'Provider sends repeated because an earlier attempt for the same message failed or had an unknown outcome',
});

/**
 * Hands one queued message to its provider, at its number's pace: resolves the channel, refuses free-form text
 * outside the customer-service window, takes a send slot (or reschedules to the slot it reserved), sends, and
 * records the outcome. A retryable provider error reschedules the row with back-off; nothing here blocks a consumer.
 */
@Injectable()
export class SendDispatcher {
  private readonly logger = new Logger(SendDispatcher.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly channels: ChannelsService,
    private readonly providers: ProviderRegistry,
    private readonly statuses: MessageStatusService,
    private readonly windows: CustomerWindowService,
    private readonly queue: SendQueue,
    private readonly limiter: SendRateLimiter,
    private readonly config: MessagingServiceConfig,
  ) {}

  async deliver(item: QueuedSend): Promise<void> {
    const { tenantId, messageId } = item;
    const message = await this.db.getRepository(MessageEntity).findOne({ where: { id: messageId, tenantId, direction: 'outbound' } });
    if (!message || message.providerMessageId !== null || message.status === 'failed') {
      await this.queue.remove(tenantId, messageId); // done already (or gone)
      return;
    }
    const channel = await this.channels.findForSend(tenantId, { channelId: item.channelId, from: message.from });
    if (!channel) return this.fail(tenantId, messageId, item.channelId || message.from ? SENDER_NOT_CONNECTED : NO_CHANNEL);
    if (message.type === 'text' && !(await this.windows.allowsFreeForm(channel.sender.provider, channel.id, message.to))) {
      // WhatsApp would refuse it (131047, maybe only asynchronously): fail it clearly without a provider call.
      return this.fail(tenantId, messageId, WINDOW_CLOSED);
    }
    let slotInMs = item.slotAt ? item.slotAt.getTime() - Date.now() : 0;
    if (!item.slotAt) {
      const limit = this.limitOf(channel);
      slotInMs = limit === null ? 0 : await this.limiter.reserve(channel.id, limit);
      if (slotInMs > SLOT_LEAD_MS) {
        // A slot further out: the row waits in the queue (durably, holding no worker) until just before it.
        await this.queue.parkUntilSlot(tenantId, messageId, slotInMs, SLOT_LEAD_MS);
        return;
      }
    }
    // Within the lead: wait in-process (the claim covers a crash meanwhile) so the send lands on its slot.
    if (slotInMs > 0) await sleep(slotInMs);
    await this.send(message, channel);
  }

  /** The channel's own limit, else the provider default; sandbox numbers have none unless set (CONTRACT.md §8). */
  private limitOf(channel: SendingChannel): number | null {
    if (channel.sendLimitPerSecond !== null) return channel.sendLimitPerSecond;
    return channel.sender.provider === 'sandbox' ? null : this.config.WHATSAPP_SEND_LIMIT_PER_SECOND;
  }

  private async send(message: MessageEntity, channel: SendingChannel): Promise<void> {
    const { tenantId, id: messageId } = message;
    const attempt = await this.claimAttempt(tenantId, messageId, channel);
    if (attempt === null) return this.queue.remove(tenantId, messageId); // accepted or failed concurrently
    if (attempt > 1) {
      repeatedSends.inc();
      this.logger.warn(`sending ${messageId} again (attempt ${attempt}): the earlier attempt failed or its outcome is unknown`);
    }
    const provider = channel.sender.provider;
    try {
      const result = await this.providers.adapterFor(provider).send(channel.sender, message.to, contentOf(message));
      providerCalls.inc({ provider, outcome: 'accepted' });
      await this.db.transaction(async (tx) => {
        await tx.getRepository(MessageEntity).update({ id: messageId, tenantId }, { providerMessageId: result.providerMessageId });
        await this.queue.remove(tenantId, messageId, tx);
      });
      await this.statuses.announce(await this.db.getRepository(MessageEntity).findOneByOrFail({ id: messageId, tenantId }));
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      providerCalls.inc({ provider, outcome: err.retriable ? 'retriable_error' : 'error' });
      if (err.retriable && attempt < MAX_PROVIDER_ATTEMPTS) {
        const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
        this.logger.warn(`send of ${messageId} failed (attempt ${attempt}/${MAX_PROVIDER_ATTEMPTS}), retrying in about ${delay} ms: ${err.message}`);
        await this.queue.reschedule(tenantId, messageId, delay / 2 + Math.random() * (delay / 2));
        return;
      }
      this.logger.warn(`send of ${messageId} failed for good: ${err.message}`);
      await this.fail(tenantId, messageId, { code: err.code, title: err.title });
    }
  }

  /** Counts a provider call about to be made and pins the channel; null when the message no longer needs sending. */
  private async claimAttempt(tenantId: string, messageId: string, channel: SendingChannel): Promise<number | null> {
    const result = await this.db
      .createQueryBuilder()
      .update(MessageEntity)
      .set({ sendAttempts: () => 'send_attempts + 1', channelId: channel.id, from: channel.phoneNumber })
      .where(`id = :messageId AND tenant_id = :tenantId AND provider_message_id IS NULL AND status <> 'failed'`, { messageId, tenantId })
      .returning('send_attempts')
      .execute();
    const row = (result.raw as { send_attempts: number }[])[0];
    return row ? row.send_attempts : null;
  }

  private async fail(tenantId: string, messageId: string, error: MessageError): Promise<void> {
    await this.statuses.apply(tenantId, messageId, { status: 'failed', at: new Date().toISOString(), error });
    await this.queue.remove(tenantId, messageId);
  }
}

/** The provider content of a recorded outbound message. */
function contentOf(message: MessageEntity): OutboundContent {
  if (message.type === 'template' && message.template) return { type: 'template', template: message.template };
  return { type: 'text', text: message.body };
}
