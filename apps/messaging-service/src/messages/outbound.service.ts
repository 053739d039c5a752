import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, MessageOutboundData } from '@parley/contracts';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { ChannelsService, type SendingChannel } from '../channels/channels.service';
import { normalisePhone } from '../common/phone';
import { ProviderRegistry } from '../providers/provider-registry';
import { ProviderError } from '../providers/whatsapp-provider';
import { MessageEntity, type StoredTemplate } from './message.entity';
import { MessageStatusService } from './message-status.service';
import { outboundBody } from './messages.mapper';

/**
 * Provider calls one message may take. Retryable provider errors (rate limits, outages, time-outs) are retried by
 * the transport with its back-off (about 3 s in all); after that the message fails with the provider's error.
 * Kept small because the consumer waits meanwhile; durable per-number pacing replaces this in a later issue.
 */
export const MAX_PROVIDER_ATTEMPTS = 5;

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

/** Malformed `message.outbound` data: a poison message for the dead-letter topic, never a send. */
export class InvalidOutboundMessageError extends Error {
  override name = 'InvalidOutboundMessageError';
}

/**
 * Sends `message.outbound` messages. Idempotent on `message_id`: the message is recorded first (so it is readable
 * at once), and a message the provider already accepted, or that failed for good, is never sent again.
 */
@Injectable()
export class OutboundService {
  private readonly logger = new Logger(OutboundService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly channels: ChannelsService,
    private readonly providers: ProviderRegistry,
    private readonly statuses: MessageStatusService,
  ) {}

  async send(tenantId: string, data: MessageOutboundData, requestId?: string): Promise<void> {
    assertOutbound(tenantId, data);
    const message = await this.record(tenantId, data);
    if (message.tenantId !== tenantId || message.direction !== 'outbound') {
      this.logger.warn(`message.outbound ${data.message_id} collides with a message of another tenant or direction; ignored`);
      return;
    }
    if (message.providerMessageId !== null || message.status === 'failed') {
      // Already handed to the provider (or failed for good): finish any announcement a crash interrupted.
      await this.statuses.announce(message, requestId);
      return;
    }

    const channel = await this.channels.findForSend(tenantId, { channelId: data.channel_id, from: data.from });
    if (!channel) {
      await this.fail(tenantId, message.id, data.channel_id || data.from ? SENDER_NOT_CONNECTED : NO_CHANNEL, requestId);
      return;
    }
    const attempt = await this.claimAttempt(tenantId, message.id, channel);
    if (attempt === null) return; // accepted or failed concurrently
    if (attempt > 1) {
      repeatedSends.inc();
      this.logger.warn(`sending ${message.id} again (attempt ${attempt}): the earlier attempt failed or its outcome is unknown`);
    }

    const provider = channel.sender.provider;
    try {
      const result = await this.providers.adapterFor(provider).send(channel.sender, message.to, data.content);
      providerCalls.inc({ provider, outcome: 'accepted' });
      await this.accept(tenantId, message.id, result.providerMessageId, requestId);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      providerCalls.inc({ provider, outcome: err.retriable ? 'retriable_error' : 'error' });
      if (err.retriable && attempt < MAX_PROVIDER_ATTEMPTS) {
        // `retriable` marks it transient for the transport, which retries with back-off.
        this.logger.warn(`send of ${message.id} failed (attempt ${attempt}/${MAX_PROVIDER_ATTEMPTS}), retrying: ${err.message}`);
        throw err;
      }
      this.logger.warn(`send of ${message.id} failed for good: ${err.message}`);
      await this.fail(tenantId, message.id, { code: err.code, title: err.title }, requestId);
    }
  }

  /** Records the message as `sent` (accepted by the platform) unless it is already recorded; returns the row. */
  private async record(tenantId: string, data: MessageOutboundData): Promise<MessageEntity> {
    const repo = this.db.getRepository(MessageEntity);
    const message = repo.create({
      id: data.message_id,
      tenantId,
      direction: 'outbound',
      channelId: null,
      from: data.from ? normalisePhone(data.from) : null,
      to: normalisePhone(data.to),
      type: data.content.type,
      body: outboundBody(data.content),
      template: data.content.type === 'template' ? (data.content.template as StoredTemplate) : null,
      status: 'sent',
      statusHistory: [{ status: 'sent', at: data.accepted_at }],
      error: null,
      providerMessageId: null,
    });
    await repo.createQueryBuilder().insert().values(message).orIgnore().execute();
    return repo.findOneByOrFail({ id: data.message_id });
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

  private async accept(tenantId: string, messageId: string, providerMessageId: string, requestId?: string): Promise<void> {
    const repo = this.db.getRepository(MessageEntity);
    await repo.update({ id: messageId, tenantId }, { providerMessageId });
    await this.statuses.announce(await repo.findOneByOrFail({ id: messageId, tenantId }), requestId);
  }

  private async fail(tenantId: string, messageId: string, error: MessageError, requestId?: string): Promise<void> {
    await this.statuses.apply(tenantId, messageId, { status: 'failed', at: new Date().toISOString(), error }, requestId);
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
      (content?.type === 'template' && typeof content.template?.name === 'string' && typeof content.template.language?.code === 'string'));
  if (!ok) throw new InvalidOutboundMessageError(`message.outbound ${String(data?.message_id)} is malformed`);
}
