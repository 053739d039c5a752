import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Topics, conversationKey, derivedId, newId, type MessageInboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { DataSource } from 'typeorm';
import type { ChannelEntity } from '../channels/channel.entity';
import { CustomerWindowService } from '../messages/customer-window.service';
import { MessageEntity } from '../messages/message.entity';
import type { NormalisedInbound } from './normalise';

const PUBLISH_TIMEOUT_MS = 5000;

/**
 * Stores customers' messages and announces each on `message.inbound` exactly once. Providers redeliver, so a
 * message is stored once per provider id on its number; a redelivery of one whose announcement never reached the
 * broker announces it then, with the same event id.
 */
@Injectable()
export class InboundMessagesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly publisher: EventPublisher,
    private readonly windows: CustomerWindowService,
  ) {}

  /** Returns whether this call announced the message (false: seen and announced before). */
  async receive(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string, requestId?: string): Promise<boolean> {
    const repo = this.db.getRepository(MessageEntity);
    await repo
      .createQueryBuilder()
      .insert()
      .values({
        id: newId('msg'),
        tenantId: channel.tenantId,
        direction: 'inbound',
        channelId: channel.id,
        from: inbound.from,
        to: channel.phoneNumber,
        type: inbound.type,
        body: inbound.text,
        template: null,
        status: 'received',
        statusHistory: [{ status: 'received', at: receivedAt }],
        error: null,
        providerMessageId: inbound.providerMessageId,
        published: false,
      })
      .orIgnore()
      .execute();
    const message = await repo.findOneByOrFail({ tenantId: channel.tenantId, channelId: channel.id, providerMessageId: inbound.providerMessageId });
    // Before announcing: a reply to this message must find the window open.
    await this.windows.recordInbound(channel.id, [inbound.from, inbound.fromUserId], inbound.sentAt ?? receivedAt);
    if (message.published || message.direction !== 'inbound') return false;

    const data: MessageInboundData = {
      message_id: message.id,
      channel: 'whatsapp',
      channel_id: channel.id,
      from: message.from ?? inbound.from,
      from_user_id: inbound.fromUserId,
      to: message.to,
      type: inbound.type,
      text: message.body,
      provider_message_id: inbound.providerMessageId,
      sent_at: inbound.sentAt ?? receivedAt,
      received_at: message.statusHistory[0]?.at ?? receivedAt,
      channel_agent: channel.agent,
      contact_name: inbound.contactName,
    };
    await this.publisher.publishEvent(
      EventPublisher.envelope(Topics.MessageInbound, channel.tenantId, data, derivedId('evt', 'inbound', message.id)),
      conversationKey(channel.tenantId, data.from),
      requestId,
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    await repo.update({ id: message.id }, { published: true });
    return true;
  }
}
