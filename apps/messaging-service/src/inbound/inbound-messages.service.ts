import { Injectable } from '@nestjs/common';
import { Headers, Topics, conversationKey, derivedId, newId, type EventEnvelope, type MessageInboundData, type InboundMedia } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { ChannelEntity } from '../channels/channel.entity';
import { GroupCommit } from '@parley/service-kit';
import { InboundMessagesStore, type NewInbound, type StoredInbound } from './inbound-messages.store';
import { MediaDownloadsQueued } from './media-downloads-queued';
import { MediaDownloadsStore } from './media-downloads.store';
import type { NormalisedInbound } from './normalise';
import { WRITE_LINGER_MS } from '../database/write-linger';

const PUBLISH_TIMEOUT_MS = 5000;
/** A batch's announcements go out in one publish: give a large one longer before it counts as a broker outage. */
const BATCH_PUBLISH_TIMEOUT_MS = 15_000;

/** A customer's message as a batch of notifications brings it. */
export interface ReceivedInbound {
  channel: ChannelEntity;
  inbound: NormalisedInbound;
  receivedAt: string;
  requestId?: string;
}

/**
 * Stores customers' messages and announces each on `message.inbound` exactly once. Providers redeliver, so a
 * message is stored once per provider id on its number; a redelivery of one whose announcement never reached the
 * broker announces it then, with the same event id.
 */
@Injectable()
export class InboundMessagesService {
  /** Concurrent "announced" marks share one statement (group commit). */
  private readonly publishedMarks = new GroupCommit<string, void>((ids) => this.writePublished(ids), { lingerMs: WRITE_LINGER_MS });

  constructor(
    private readonly store: InboundMessagesStore,
    private readonly publisher: EventPublisher,
    private readonly downloads: MediaDownloadsStore,
    private readonly downloadsQueued: MediaDownloadsQueued,
  ) {}

  /**
   * Announces a stored media message once its download is settled: with its file, or with `media: null` when the
   * provider never gave it. False when it was announced before (a download retried after its announcement).
   */
  async announceWithMedia(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string, messageId: string, media: InboundMedia | null, requestId?: string): Promise<boolean> {
    const message = await this.store.find(channel.tenantId, messageId);
    if (!message || message.published || message.direction !== 'inbound') return false;
    const event = inboundEvent(channel, inbound, receivedAt, message, media);
    await this.publisher.publishEvent(event.envelope, event.key, requestId, { timeoutMs: PUBLISH_TIMEOUT_MS });
    await this.publishedMarks.add(message.id);
    return true;
  }

  /** Returns whether this call announced the message (false: seen and announced before). */
  async receive(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string, requestId?: string): Promise<boolean> {
    const message = await this.storeOne(channel, inbound, receivedAt);
    if (message.published || message.direction !== 'inbound') return false;
    if (inbound.media) {
      // Announced once its file is downloaded (MediaDownloadWorker): the conversation goes on meanwhile.
      await this.downloads.enqueue([{ tenantId: channel.tenantId, channelId: channel.id, messageId: message.id, inbound, receivedAt, requestId }]);
      this.downloadsQueued.notify();
      return false;
    }
    const event = inboundEvent(channel, inbound, receivedAt, message);
    await this.publisher.publishEvent(event.envelope, event.key, requestId, { timeoutMs: PUBLISH_TIMEOUT_MS });
    await this.publishedMarks.add(message.id);
    return true;
  }

  /**
   * `receive` for a batch with a constant number of round trips: one multi-row insert (a provider id already stored on
   * its number is skipped) with the customers' windows, one read of those stored before, one publish of the
   * announcements not yet made, one "announced" mark. Answers how many this call announced.
   */
  async receiveMany(items: readonly ReceivedInbound[]): Promise<number> {
    // A redelivery inside the batch is the same message: the first one stands for it.
    const firsts = new Map<string, ReceivedInbound>();
    for (const item of items) if (!firsts.has(inboundKey(item.channel.id, item.inbound.providerMessageId))) firsts.set(inboundKey(item.channel.id, item.inbound.providerMessageId), item);
    const batch = [...firsts.values()];
    if (batch.length === 0) return 0;
    const stored = await this.storeMany(batch);
    const toAnnounce = batch
      .map((item) => ({ item, message: stored.get(inboundKey(item.channel.id, item.inbound.providerMessageId)) }))
      .filter((x): x is { item: ReceivedInbound; message: StoredInbound } => !!x.message && !x.message.published && x.message.direction === 'inbound');
    // Media messages are announced once their file is downloaded (MediaDownloadWorker); the rest at once.
    const withMedia = toAnnounce.filter(({ item }) => item.inbound.media);
    if (withMedia.length > 0) {
      await this.downloads.enqueue(
        withMedia.map(({ item, message }) => ({ tenantId: item.channel.tenantId, channelId: item.channel.id, messageId: message.id, inbound: item.inbound, receivedAt: item.receivedAt, requestId: item.requestId })),
      );
      this.downloadsQueued.notify();
      toAnnounce.splice(0, toAnnounce.length, ...toAnnounce.filter(({ item }) => !item.inbound.media));
    }
    if (toAnnounce.length === 0) return 0;
    await this.publisher.publish(
      toAnnounce.map(({ item, message }) => {
        const event = inboundEvent(item.channel, item.inbound, item.receivedAt, message);
        return { topic: Topics.MessageInbound, key: event.key, value: event.envelope, headers: { [Headers.RequestId]: item.requestId, [Headers.EventType]: Topics.MessageInbound } };
      }),
      { timeoutMs: BATCH_PUBLISH_TIMEOUT_MS },
    );
    await this.writePublished(toAnnounce.map(({ message }) => message.id));
    return toAnnounce.length;
  }

  /** The stored message of each item (new or stored before), by channel id and provider id. */
  private async storeMany(batch: ReceivedInbound[]): Promise<Map<string, StoredInbound>> {
    const messages = batch.map(({ channel, inbound, receivedAt }): NewInbound => ({
      id: newId('msg'),
      tenant_id: channel.tenantId,
      channel_id: channel.id,
      from: inbound.from,
      to: channel.phoneNumber,
      type: inbound.type,
      body: inbound.text,
      status_history: [{ status: 'received', at: receivedAt }],
      provider_message_id: inbound.providerMessageId,
      channel: channel.kind,
      subject: inbound.subject ?? null,
    }));
    const windows = batch.flatMap(({ channel, inbound, receivedAt }) =>
      [...new Set([inbound.from, inbound.fromUserId].filter((c): c is string => !!c))].map((customer) => ({ channel_id: channel.id, customer, at: inbound.sentAt ?? receivedAt })),
    );
    const rows = await this.store.storeMany(messages, windows);
    const found = new Map(rows.map((row) => [inboundKey(row.channel_id, row.provider_message_id), row]));
    const before = messages.filter((m) => !found.has(inboundKey(m.channel_id, m.provider_message_id)));
    if (before.length > 0) {
      // Stored before (a redelivery), or by a concurrent delivery: the tenant's row on that number.
      const earlier = await this.store.findManyByProviderId(before);
      for (const row of earlier) found.set(inboundKey(row.channel_id, row.provider_message_id), row);
      const missing = before.find((m) => !found.has(inboundKey(m.channel_id, m.provider_message_id)));
      if (missing) throw new Error(`inbound message ${missing.provider_message_id} on channel ${missing.channel_id} was neither stored nor found`);
    }
    return found;
  }

  /**
   * One statement: stores the message unless its provider id is known on the channel, and records the customer's
   * window (before announcing: a reply to this message must find the window open). Answers the stored message.
   */
  private async storeOne(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string): Promise<StoredInbound> {
    const customers = [...new Set([inbound.from, inbound.fromUserId].filter((c): c is string => !!c))];
    const stored = await this.store.storeOne(channel.tenantId, channel, newId('msg'), inbound, receivedAt, customers, inbound.sentAt ?? receivedAt);
    if (stored) return stored;
    // Stored by a concurrent delivery that committed after this statement's snapshot: read it now.
    const row = await this.store.findByProviderId(channel.tenantId, channel.id, inbound.providerMessageId);
    if (!row) throw new Error(`inbound message ${inbound.providerMessageId} on channel ${channel.id} was neither stored nor found`);
    return row;
  }

  private async writePublished(ids: string[]): Promise<void[]> {
    await this.store.markPublished(ids);
    return ids.map(() => undefined);
  }
}

/** The `message.inbound` announcement of a stored message; its id derives from the message (replays are one event). */
function inboundEvent(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string, message: StoredInbound, media?: InboundMedia | null): { envelope: EventEnvelope; key: string } {
  const data: MessageInboundData = {
    message_id: message.id,
    channel: channel.kind,
    channel_id: channel.id,
    from: message.from ?? inbound.from,
    from_user_id: inbound.fromUserId,
    to: message.to,
    type: inbound.type,
    text: message.body,
    provider_message_id: inbound.providerMessageId,
    sent_at: inbound.sentAt ?? receivedAt,
    received_at: message.status_history[0]?.at ?? receivedAt,
    channel_agent: channel.agent,
    contact_name: inbound.contactName,
    ...(media !== undefined ? { media } : {}),
    ...(inbound.interactive ? { interactive: inbound.interactive } : {}),
  };
  return { envelope: EventPublisher.envelope(Topics.MessageInbound, channel.tenantId, data, derivedId('evt', 'inbound', message.id)), key: conversationKey(channel.tenantId, data.from) };
}

function inboundKey(channelId: string, providerMessageId: string): string {
  return `${channelId}\n${providerMessageId}`;
}
