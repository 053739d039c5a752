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
import { TemplatesService, type TemplateStatusUpdate } from '../templates/templates.service';
import { InboundMessagesService, type ReceivedInbound } from './inbound-messages.service';
import { normaliseInbound, unixToIso, type NormalisedInbound } from './normalise';
import { SmsKeywordsService } from '../sms/sms-keywords.service';
import { smsKeyword } from '../sms/sms-keywords';
import { parseTwilioSmsWebhook } from './twilio-webhook';

const STATUSES: ReadonlySet<string> = new Set<OutboundStatus>(['sent', 'delivered', 'read', 'failed']);

/** A notification that is not a Cloud API notification at all: for the dead-letter topic, never retried into success. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
}

/** One queued provider notification and the request that brought it. */
export interface QueuedNotification {
  data: WhatsappWebhookData;
  requestId?: string;
}

/** A valid status item of a notification, for its channel. */
interface StatusItem {
  channel: ChannelEntity;
  status: CloudApiStatus;
  incoming: IncomingStatus;
  requestId?: string;
}

/** What the notifications of a batch ask for, gathered before any of it is written. */
interface BatchWork {
  inbound: ReceivedInbound[];
  statuses: StatusItem[];
  /** `message_template_status_update` changes (WABA-level, no phone number). */
  templates: { update: TemplateStatusUpdate; requestId?: string }[];
  failures: unknown[];
}

/**
 * Works provider notifications (`whatsapp.webhook`): customer messages become stored messages and `message.inbound`
 * events, statuses move outbound messages along. The notifications of one business number come as a batch (the
 * gateway keys them by phone_number_id), whose messages and statuses are each written and announced together with a
 * constant number of round trips; statuses of a wamid no message carries yet take the one-by-one path (acceptance by
 * `biz_opaque_callback_data`, or parking). One item that fails never loses the others: the batch is retried as a
 * whole (every step is idempotent) while any failed, and the transport splits a batch that keeps failing.
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
    private readonly templates: TemplatesService,
    private readonly smsKeywords: SmsKeywordsService,
  ) {}

  /** One notification: a batch of one. */
  process(data: WhatsappWebhookData, requestId?: string): Promise<void> {
    return this.processMany([{ data, requestId }]);
  }

  /** The notifications of one key, in partition order. Throws (after doing the rest) when any item failed. */
  async processMany(notifications: readonly QueuedNotification[]): Promise<void> {
    const work: BatchWork = { inbound: [], statuses: [], templates: [], failures: [] };
    for (const { data, requestId } of notifications) {
      try {
        await this.gather(data, requestId, work);
      } catch (err) {
        work.failures.push(err);
      }
    }
    // Statuses first: once a customer message of the batch is announced, every status that came before it in the
    // partition is applied, as it was when notifications went one at a time.
    if (work.statuses.length > 0) await this.applyAll(work);
    if (work.inbound.length > 0) await this.receiveAll(work);
    if (work.templates.length > 0) {
      try {
        for (const { update, requestId } of work.templates) await this.templates.applyStatusUpdates([update], requestId);
      } catch (err) {
        work.failures.push(err);
      }
    }
    if (work.failures.length > 0) {
      // A poison item decides (it will end in the dead-letter topic); otherwise retry as transient.
      throw work.failures.find((f) => !isTransientError(f)) ?? work.failures[0];
    }
  }

  /** Collects a notification's valid customer messages and statuses (per change, for its channel). */
  private async gather(data: WhatsappWebhookData, requestId: string | undefined, work: BatchWork): Promise<void> {
    const receivedAt = typeof data?.received_at === 'string' && !Number.isNaN(Date.parse(data.received_at)) ? data.received_at : new Date().toISOString();
    if (data?.provider === 'twilio') return this.gatherTwilio(data, receivedAt, requestId, work);
    const notification = parseNotification(data?.raw_body);
    for (const entry of asList(notification.entry)) {
      for (const change of asList((entry as { changes?: unknown } | null)?.changes)) {
        const template = templateStatusUpdate(entry, change);
        if (template) {
          work.templates.push({ update: template, requestId });
          continue;
        }
        const value = (change as { value?: CloudApiChangeValue } | null)?.value;
        if (typeof value !== 'object' || value === null || (!asList(value.messages).length && !asList(value.statuses).length)) continue;
        try {
          const channel = await this.channelOf(value, data.channel_id);
          if (channel) this.gatherChange(channel, value, receivedAt, requestId, work);
        } catch (err) {
          work.failures.push(err);
        }
      }
    }
  }

  /** A Twilio SMS webhook (signature checked at the gateway against `channel_id`'s auth token): one message or one status. */
  private async gatherTwilio(data: WhatsappWebhookData, receivedAt: string, requestId: string | undefined, work: BatchWork): Promise<void> {
    if (typeof data.raw_body !== 'string' || typeof data.channel_id !== 'string') throw new InvalidNotificationError('twilio webhook without raw_body or channel_id');
    const channel = await this.channels.findById(data.channel_id);
    if (!channel || channel.kind !== 'sms') {
      this.logger.warn(`skipping a Twilio webhook for unknown SMS channel ${data.channel_id}`);
      return;
    }
    const event = parseTwilioSmsWebhook(data.raw_body, receivedAt);
    const keyword = event.kind === 'inbound' ? smsKeyword(event.message.text) : null;
    // STOP, START and HELP are the carrier's, handled here; the agent never answers them.
    if (event.kind === 'inbound' && keyword) await this.smsKeywords.handle(channel, event.message, keyword, receivedAt, requestId);
    else if (event.kind === 'inbound') work.inbound.push({ channel, inbound: event.message, receivedAt, requestId });
    else if (event.kind === 'status') work.statuses.push({ channel, status: { id: event.providerMessageId, status: event.status.status }, incoming: event.status, requestId });
    else this.logger.debug(`ignoring a Twilio webhook on channel ${channel.id}: ${event.reason}`);
  }

  /** Stores and announces the batch's customer messages together; one by one only when the batch write is refused. */
  private async receiveAll(work: BatchWork): Promise<void> {
    try {
      await this.inbound.receiveMany(work.inbound);
    } catch (err) {
      if (isTransientError(err)) {
        work.failures.push(err);
        return;
      }
      // Something in the batch the database will not take: find it, keeping every message beside it.
      for (const item of work.inbound) {
        try {
          await this.inbound.receive(item.channel, item.inbound, item.receivedAt, item.requestId);
        } catch (one) {
          work.failures.push(one);
        }
      }
    }
  }

  /** Applies the batch's statuses of known wamids together; the rest (and everything, when the batch write is refused) one by one. */
  private async applyAll(work: BatchWork): Promise<void> {
    let rest: StatusItem[];
    try {
      const unknown = await this.statuses.applyByProviderIds(
        work.statuses.map((item) => ({ tenantId: item.channel.tenantId, channelId: item.channel.id, providerMessageId: item.status.id!, incoming: item.incoming, requestId: item.requestId, item })),
      );
      rest = unknown.map(({ item }) => item);
    } catch (err) {
      if (isTransientError(err)) {
        work.failures.push(err);
        return;
      }
      rest = work.statuses;
    }
    for (const item of rest) {
      try {
        await this.applyStatus(item);
      } catch (err) {
        work.failures.push(err);
      }
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

  private gatherChange(channel: ChannelEntity, value: CloudApiChangeValue, receivedAt: string, requestId: string | undefined, work: BatchWork): void {
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
      work.inbound.push({ channel, inbound: message, receivedAt, requestId });
    }
    // One line per change, however many junk items it carried (and again on each retry).
    if (malformed.count > 0) {
      this.logger.warn(`skipping ${malformed.count} malformed inbound item(s) (no id or sender) on channel ${channel.id}; first: ${malformed.sample}`);
    }
    for (const raw of asList(value.statuses)) {
      const status = isStatus(raw) ? raw : {};
      if (typeof status.id !== 'string' || typeof status.status !== 'string' || !STATUSES.has(status.status)) continue; // e.g. `played`
      const incoming: IncomingStatus = { status: status.status as OutboundStatus, at: unixToIso(status.timestamp) ?? new Date().toISOString(), error: statusError(status) };
      work.statuses.push({ channel, status, incoming, requestId });
    }
  }

  /**
   * A status of a wamid we recorded is applied at once. One we have not (yet) recorded either names its message in
   * `biz_opaque_callback_data` (the send's answer was lost or is still on its way: the status is the proof it was
   * taken) or is parked until its message records the wamid. Neither retries the notification, so its partition
   * never waits.
   */
  private async applyStatus({ channel, status, incoming, requestId }: StatusItem): Promise<void> {
    const providerMessageId = status.id!;
    let message = await this.statuses.findByProviderId(channel.tenantId, channel.id, providerMessageId);
    if (!message && typeof status.biz_opaque_callback_data === 'string' && status.biz_opaque_callback_data) {
      message = await this.acceptance.record(channel.tenantId, status.biz_opaque_callback_data, channel.id, providerMessageId, requestId);
    }
    if (!message) {
      this.logger.debug(`parking a ${status.status} status for provider id ${providerMessageId} on channel ${channel.id}: no message carries it yet`);
      await this.pending.park(channel.tenantId, channel.id, providerMessageId, incoming, requestId);
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

/** A `message_template_status_update` change (Meta: `entry[].id` is the WABA), or null for any other change. */
function templateStatusUpdate(entry: unknown, change: unknown): TemplateStatusUpdate | null {
  const c = change as { field?: unknown; value?: Record<string, unknown> } | null;
  if (c?.field !== 'message_template_status_update' || typeof c.value !== 'object' || c.value === null) return null;
  const wabaId = (entry as { id?: unknown } | null)?.id;
  const v = c.value;
  const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' ? String(x) : null);
  if (typeof wabaId !== 'string' || typeof v.event !== 'string') return null;
  return {
    wabaId,
    providerTemplateId: str(v.message_template_id),
    name: str(v.message_template_name),
    language: str(v.message_template_language),
    event: v.event,
    reason: str(v.reason),
  };
}
