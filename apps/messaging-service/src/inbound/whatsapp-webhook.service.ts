import { Injectable, Logger } from '@nestjs/common';
import type { MessageError, OutboundStatus, WhatsappWebhookData } from '@parley/contracts';
import { isTransientError } from '@parley/kafka';
import type { ChannelEntity } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { MessageStatusService } from '../messages/message-status.service';
import type { CloudApiChangeValue, CloudApiNotification, CloudApiStatus } from '../providers/cloud-api.types';
import { InboundMessagesService } from './inbound-messages.service';
import { normaliseInbound, unixToIso } from './normalise';

/**
 * Deliveries of one notification in which a status may still name a wamid we have not recorded (the send that got
 * it may not have stored it yet). After that the status is dropped with a warning.
 */
export const UNKNOWN_STATUS_ATTEMPTS = 6;

const STATUSES: ReadonlySet<string> = new Set<OutboundStatus>(['sent', 'delivered', 'read', 'failed']);

/** A notification that is not a Cloud API notification at all: for the dead-letter topic, never retried into success. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
}

/** A status for a wamid not recorded yet: transient (the transport retries it with back-off, never dead-letters it). */
export class StatusNotYetKnownError extends Error {
  override name = 'StatusNotYetKnownError';
  readonly retriable = true;
}

/**
 * Works a provider notification (`whatsapp.webhook`): customer messages become stored messages and
 * `message.inbound` events, statuses move outbound messages along. Each item is handled on its own, so one that
 * fails never loses the others; the notification is retried as a whole (every step is idempotent) while any failed.
 */
@Injectable()
export class WhatsappWebhookService {
  private readonly logger = new Logger(WhatsappWebhookService.name);

  constructor(
    private readonly channels: ChannelsService,
    private readonly inbound: InboundMessagesService,
    private readonly statuses: MessageStatusService,
  ) {}

  async process(data: WhatsappWebhookData, attempt: number, requestId?: string): Promise<void> {
    const notification = parseNotification(data?.raw_body);
    const receivedAt = typeof data.received_at === 'string' && !Number.isNaN(Date.parse(data.received_at)) ? data.received_at : new Date().toISOString();
    const failures: unknown[] = [];
    for (const entry of notification.entry ?? []) {
      for (const change of entry?.changes ?? []) {
        const value = change?.value;
        if (!value || (!value.messages?.length && !value.statuses?.length)) continue;
        try {
          const channel = await this.channelOf(value, data.channel_id);
          if (channel) failures.push(...(await this.processChange(channel, value, receivedAt, attempt, requestId)));
        } catch (err) {
          failures.push(err);
        }
      }
    }
    if (failures.length > 0) {
      // A poison item decides (it will end in the dead-letter topic); otherwise retry as transient.
      throw failures.find((f) => !isTransientError(f)) ?? failures[0];
    }
  }

  private async channelOf(value: CloudApiChangeValue, urlChannelId: string | null): Promise<ChannelEntity | null> {
    const phoneNumberId = value.metadata?.phone_number_id;
    if (urlChannelId) {
      // A provider URL that names a channel (360dialog) speaks for that channel's number only.
      const channel = await this.channels.findById(urlChannelId);
      if (!channel) {
        this.logger.warn(`skipping a notification change for unknown channel ${urlChannelId}`);
        return null;
      }
      if (channel.phoneNumberId && phoneNumberId && phoneNumberId !== channel.phoneNumberId) {
        this.logger.warn(`skipping a notification change for phone_number_id ${String(phoneNumberId)}: it does not belong to channel ${urlChannelId}`);
        return null;
      }
      return channel;
    }
    if (typeof phoneNumberId !== 'string' || !phoneNumberId) {
      this.logger.warn('skipping a notification change without metadata.phone_number_id');
      return null;
    }
    const channel = await this.channels.findByPhoneNumberId(phoneNumberId);
    if (!channel) {
      this.logger.warn(`skipping a notification change for unknown phone_number_id ${phoneNumberId}`);
      return null;
    }
    return channel;
  }

  private async processChange(channel: ChannelEntity, value: CloudApiChangeValue, receivedAt: string, attempt: number, requestId?: string): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const item of value.messages ?? []) {
      try {
        const message = normaliseInbound(item ?? {}, value.contacts ?? []);
        if (!message) {
          this.logger.warn(`skipping an inbound item without id or sender on channel ${channel.id}`);
          continue;
        }
        await this.inbound.receive(channel, message, receivedAt, requestId);
      } catch (err) {
        failures.push(err);
      }
    }
    for (const status of value.statuses ?? []) {
      try {
        await this.applyStatus(channel, status ?? {}, attempt, requestId);
      } catch (err) {
        failures.push(err);
      }
    }
    return failures;
  }

  private async applyStatus(channel: ChannelEntity, status: CloudApiStatus, attempt: number, requestId?: string): Promise<void> {
    if (typeof status.id !== 'string' || typeof status.status !== 'string' || !STATUSES.has(status.status)) return; // e.g. `played`
    const message = await this.statuses.findByProviderId(channel.tenantId, channel.id, status.id);
    if (!message) {
      if (attempt < UNKNOWN_STATUS_ATTEMPTS) throw new StatusNotYetKnownError(`no outbound message with provider id ${status.id} on channel ${channel.id} yet`);
      this.logger.warn(`dropping a ${status.status} status for unknown provider id ${status.id} on channel ${channel.id}`);
      return;
    }
    await this.statuses.apply(
      channel.tenantId,
      message.id,
      { status: status.status as OutboundStatus, at: unixToIso(status.timestamp) ?? new Date().toISOString(), error: statusError(status) },
      requestId,
    );
  }
}

function parseNotification(raw: unknown): CloudApiNotification {
  if (typeof raw !== 'string') throw new InvalidNotificationError('whatsapp.webhook without raw_body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidNotificationError('the notification body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as CloudApiNotification).object !== 'whatsapp_business_account') {
    throw new InvalidNotificationError('the notification is not a whatsapp_business_account notification');
  }
  const entry = (parsed as CloudApiNotification).entry;
  if (entry !== undefined && !Array.isArray(entry)) throw new InvalidNotificationError('the notification entry is not a list');
  return parsed as CloudApiNotification;
}

function statusError(status: CloudApiStatus): MessageError | undefined {
  if (status.status !== 'failed') return undefined;
  const e = status.errors?.[0];
  if (!e) return undefined;
  return { code: e.code !== undefined ? String(e.code) : 'unknown', title: e.title ?? e.message ?? 'The message could not be delivered' };
}
