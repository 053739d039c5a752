import { Injectable, Logger } from '@nestjs/common';
import type { MessageError, OutboundStatus, WhatsappWebhookData } from '@parley/contracts';
import { isTransientError } from '@parley/kafka';
import type { ChannelEntity } from '../channels/channel.entity';
import { MessageStatusService } from '../messages/message-status.service';
import type { IncomingStatus } from '../messages/status-machine';
import { PendingStatusesService } from '../messages/pending-statuses.service';
import { CachedChannels } from '../sending/cached-channels';
import { SendAcceptance } from '../sending/send-acceptance.service';
import type { CloudApiChangeValue, CloudApiNotification, CloudApiStatus } from '../providers/cloud-api.types';
import { InboundMessagesService } from './inbound-messages.service';
import { normaliseInbound, unixToIso, type NormalisedInbound } from './normalise';

const STATUSES: ReadonlySet<string> = new Set<OutboundStatus>(['sent', 'delivered', 'read', 'failed']);

/** A notification that is not a Cloud API notification at all: for the dead-letter topic, never retried into success. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
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
    private readonly channels: CachedChannels,
    private readonly inbound: InboundMessagesService,
    private readonly statuses: MessageStatusService,
    private readonly pending: PendingStatusesService,
    private readonly acceptance: SendAcceptance,
  ) {}

  async process(data: WhatsappWebhookData, requestId?: string): Promise<void> {
    const notification = parseNotification(data?.raw_body);
    const receivedAt = typeof data.received_at === 'string' && !Number.isNaN(Date.parse(data.received_at)) ? data.received_at : new Date().toISOString();
    const failures: unknown[] = [];
    for (const entry of asList(notification.entry)) {
      for (const change of asList((entry as { changes?: unknown } | null)?.changes)) {
        const value = (change as { value?: CloudApiChangeValue } | null)?.value;
        if (typeof value !== 'object' || value === null || (!asList(value.messages).length && !asList(value.statuses).length)) continue;
        try {
          const channel = await this.channelOf(value, data.channel_id);
          if (channel) failures.push(...(await this.processChange(channel, value, receivedAt, requestId)));
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

  private async processChange(channel: ChannelEntity, value: CloudApiChangeValue, receivedAt: string, requestId?: string): Promise<unknown[]> {
    const failures: unknown[] = [];
    const malformed: MalformedItems = { count: 0, sample: undefined };
    for (const item of asList(value.messages)) {
      let message: NormalisedInbound | null;
      try {
        message = normaliseInbound(item, value.contacts);
      } catch (err) {
        // A shape normalisation did not foresee: skip that item, never the valid messages beside it.
        message = null;
        malformed.sample ??= String(err);
      }
      if (!message) {
        malformed.count++;
        malformed.sample ??= JSON.stringify(item)?.slice(0, 200) ?? String(item);
        continue;
      }
      try {
        await this.inbound.receive(channel, message, receivedAt, requestId);
      } catch (err) {
        failures.push(err);
      }
    }
    // One line per change, however many junk items it carried (and again on each retry).
    if (malformed.count > 0) {
      this.logger.warn(`skipping ${malformed.count} malformed inbound item(s) (no id or sender) on channel ${channel.id}; first: ${malformed.sample}`);
    }
    for (const status of asList(value.statuses)) {
      try {
        await this.applyStatus(channel, isStatus(status) ? status : {}, requestId);
      } catch (err) {
        failures.push(err);
      }
    }
    return failures;
  }

  /**
   * A status of a wamid we recorded is applied at once. One we have not (yet) recorded either names its message in
   * `biz_opaque_callback_data` (the send's answer was lost or is still on its way: the status is the proof it was
   * taken) or is parked until its message records the wamid. Neither retries the notification, so its partition
   * never waits.
   */
  private async applyStatus(channel: ChannelEntity, status: CloudApiStatus, requestId?: string): Promise<void> {
    if (typeof status.id !== 'string' || typeof status.status !== 'string' || !STATUSES.has(status.status)) return; // e.g. `played`
    const incoming: IncomingStatus = { status: status.status as OutboundStatus, at: unixToIso(status.timestamp) ?? new Date().toISOString(), error: statusError(status) };
    let message = await this.statuses.findByProviderId(channel.tenantId, channel.id, status.id);
    if (!message && typeof status.biz_opaque_callback_data === 'string' && status.biz_opaque_callback_data) {
      message = await this.acceptance.record(channel.tenantId, status.biz_opaque_callback_data, channel.id, status.id, requestId);
    }
    if (!message) {
      this.logger.debug(`parking a ${status.status} status for provider id ${status.id} on channel ${channel.id}: no message carries it yet`);
      await this.pending.park(channel.tenantId, channel.id, status.id, incoming, requestId);
      return;
    }
    await this.statuses.apply(channel.tenantId, message.id, incoming, requestId);
  }
}

interface MalformedItems {
  count: number;
  sample: string | undefined;
}

/** A provider list that may arrive as anything: a non-array counts as empty. */
function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isStatus(value: unknown): value is CloudApiStatus {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
