import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Topics, conversationKey, derivedId, newId, type MessageInboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { DataSource } from 'typeorm';
import type { ChannelEntity } from '../channels/channel.entity';
import { GroupCommit } from '@parley/service-kit';
import type { StatusEntry } from '../messages/message.entity';
import type { NormalisedInbound } from './normalise';

const PUBLISH_TIMEOUT_MS = 5000;

/** What announcing needs of a stored inbound message (a raw row). */
interface StoredInbound {
  id: string;
  direction: string;
  from: string | null;
  to: string;
  body: string;
  status_history: StatusEntry[];
  published: boolean;
}

/**
 * Stores customers' messages and announces each on `message.inbound` exactly once. Providers redeliver, so a
 * message is stored once per provider id on its number; a redelivery of one whose announcement never reached the
 * broker announces it then, with the same event id.
 */
@Injectable()
export class InboundMessagesService {
  /** Concurrent "announced" marks share one statement (group commit). */
  private readonly publishedMarks = new GroupCommit<string, void>((ids) => this.writePublished(ids));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly publisher: EventPublisher,
  ) {}

  /** Returns whether this call announced the message (false: seen and announced before). */
  async receive(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string, requestId?: string): Promise<boolean> {
    const message = await this.store(channel, inbound, receivedAt);
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
      received_at: message.status_history[0]?.at ?? receivedAt,
      channel_agent: channel.agent,
      contact_name: inbound.contactName,
    };
    await this.publisher.publishEvent(
      EventPublisher.envelope(Topics.MessageInbound, channel.tenantId, data, derivedId('evt', 'inbound', message.id)),
      conversationKey(channel.tenantId, data.from),
      requestId,
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    await this.publishedMarks.add(message.id);
    return true;
  }

  /**
   * One statement: stores the message unless its provider id is known on the channel, and records the customer's
   * window (before announcing: a reply to this message must find the window open). Answers the stored message.
   */
  private async store(channel: ChannelEntity, inbound: NormalisedInbound, receivedAt: string): Promise<StoredInbound> {
    const customers = [...new Set([inbound.from, inbound.fromUserId].filter((c): c is string => !!c))];
    const rows = (await this.db.query(
      `WITH stored AS (
         INSERT INTO messages (id, tenant_id, direction, channel_id, "from", "to", type, body, status, status_history, provider_message_id)
         VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7, 'received', $8, $9)
         ON CONFLICT DO NOTHING RETURNING id, direction, "from", "to", body, status_history, published),
       windows AS (
         INSERT INTO customer_windows (channel_id, customer, last_inbound_at) SELECT $3::text, customer, $10::timestamptz FROM unnest($11::text[]) AS customer
         ON CONFLICT (channel_id, customer) DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at))
       SELECT * FROM stored
       UNION ALL
       SELECT id, direction, "from", "to", body, status_history, published FROM messages
       WHERE tenant_id = $2 AND channel_id = $3 AND provider_message_id = $9 AND NOT EXISTS (SELECT 1 FROM stored)`,
      [
        newId('msg'),
        channel.tenantId,
        channel.id,
        inbound.from,
        channel.phoneNumber,
        inbound.type,
        inbound.text,
        JSON.stringify([{ status: 'received', at: receivedAt }]),
        inbound.providerMessageId,
        inbound.sentAt ?? receivedAt,
        customers,
      ],
    )) as StoredInbound[];
    if (rows[0]) return rows[0];
    // Stored by a concurrent delivery that committed after this statement's snapshot: read it now.
    const [row] = (await this.db.query(
      `SELECT id, direction, "from", "to", body, status_history, published FROM messages WHERE tenant_id = $1 AND channel_id = $2 AND provider_message_id = $3`,
      [channel.tenantId, channel.id, inbound.providerMessageId],
    )) as StoredInbound[];
    if (!row) throw new Error(`inbound message ${inbound.providerMessageId} on channel ${channel.id} was neither stored nor found`);
    return row;
  }

  private async writePublished(ids: string[]): Promise<void[]> {
    await this.db.query(`UPDATE messages SET published = true, updated_at = now() WHERE id = ANY($1::text[])`, [ids]);
    return ids.map(() => undefined);
  }
}
