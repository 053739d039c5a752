import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelEntity } from '../channels/channel.entity';
import type { StatusEntry } from '../messages/message.entity';
import type { NormalisedInbound } from './normalise';

/** What announcing needs of a stored inbound message (a raw row). */
export interface StoredInbound {
  id: string;
  channel_id: string;
  provider_message_id: string;
  direction: string;
  from: string | null;
  to: string;
  body: string;
  status_history: StatusEntry[];
  published: boolean;
}

/** A customer's message as the insert takes it (a plain row). */
export interface NewInbound {
  id: string;
  tenant_id: string;
  channel_id: string;
  from: string;
  to: string;
  type: string;
  body: string;
  status_history: StatusEntry[];
  provider_message_id: string;
  channel: string;
  subject: string | null;
}

/** The channel a customer's message was written to. */
export type InboundChannel = Pick<ChannelEntity, 'id' | 'phoneNumber' | 'kind'>;

/** The customer wrote to the channel at `at` (an ISO time): their 24-hour window. */
export interface InboundWindow {
  channel_id: string;
  customer: string;
  at: string;
}

/** A provider id on one of the tenant's channels. */
export interface InboundKey {
  tenant_id: string;
  channel_id: string;
  provider_message_id: string;
}

/**
 * The SQL of customers' messages (InboundMessagesService decides what is announced, and when). A message is stored
 * once per provider id on its channel (the unique index), together with the customer's window.
 */
@Injectable()
export class InboundMessagesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The tenant's message (any direction; the caller checks), or null. */
  async find(tenantId: string, messageId: string): Promise<StoredInbound | null> {
    const [message] = (await this.db.query(
      `SELECT id, channel_id, provider_message_id, direction, "from", "to", body, status_history, published FROM messages WHERE id = $1 AND tenant_id = $2`,
      [messageId, tenantId],
    )) as StoredInbound[];
    return message ?? null;
  }

  /**
   * One statement: stores the customer's message (id `messageId`, received at `receivedAt`) unless its provider id is
   * known on the channel, and records the customers' windows at `windowAt`. Answers the stored message, new or stored
   * before; null when a concurrent delivery stored it after this statement's snapshot (findByProviderId finds it then).
   */
  async storeOne(
    tenantId: string,
    channel: InboundChannel,
    messageId: string,
    inbound: NormalisedInbound,
    receivedAt: string,
    customers: readonly string[],
    windowAt: string,
  ): Promise<StoredInbound | null> {
    const rows = (await this.db.query(
      `WITH stored AS (
         INSERT INTO messages (id, tenant_id, direction, channel_id, "from", "to", type, body, status, status_history, provider_message_id, channel, subject)
         VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7, 'received', $8, $9, $12, $13)
         ON CONFLICT DO NOTHING RETURNING id, channel_id, provider_message_id, direction, "from", "to", body, status_history, published),
       windows AS (
         INSERT INTO customer_windows (channel_id, customer, last_inbound_at) SELECT $3::text, customer, $10::timestamptz FROM unnest($11::text[]) AS customer
         ON CONFLICT (channel_id, customer) DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at))
       SELECT * FROM stored
       UNION ALL
       SELECT id, channel_id, provider_message_id, direction, "from", "to", body, status_history, published FROM messages
       WHERE tenant_id = $2 AND channel_id = $3 AND provider_message_id = $9 AND NOT EXISTS (SELECT 1 FROM stored)`,
      [
        messageId,
        tenantId,
        channel.id,
        inbound.from,
        channel.phoneNumber,
        inbound.type,
        inbound.text,
        JSON.stringify([{ status: 'received', at: receivedAt }]),
        inbound.providerMessageId,
        windowAt,
        customers,
        channel.kind,
        inbound.subject ?? null,
      ],
    )) as StoredInbound[];
    return rows[0] ?? null;
  }

  /** The tenant's message with this provider id on the channel, or null. */
  async findByProviderId(tenantId: string, channelId: string, providerMessageId: string): Promise<StoredInbound | null> {
    const [row] = (await this.db.query(
      `SELECT id, channel_id, provider_message_id, direction, "from", "to", body, status_history, published FROM messages WHERE tenant_id = $1 AND channel_id = $2 AND provider_message_id = $3`,
      [tenantId, channelId, providerMessageId],
    )) as StoredInbound[];
    return row ?? null;
  }

  /**
   * storeOne for a batch of any tenants, in one statement: one multi-row insert (a provider id already stored on its
   * channel is skipped) with the customers' windows. Answers the messages this statement stored.
   */
  async storeMany(messages: readonly NewInbound[], windows: readonly InboundWindow[]): Promise<StoredInbound[]> {
    return (await this.db.query(
      `WITH stored AS (
         INSERT INTO messages (id, tenant_id, direction, channel_id, "from", "to", type, body, status, status_history, provider_message_id, channel, subject)
         SELECT x.id, x.tenant_id, 'inbound', x.channel_id, x."from", x."to", x.type, x.body, 'received', x.status_history, x.provider_message_id, x.channel, x.subject
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, tenant_id text, channel_id text, "from" text, "to" text, type text, body text, status_history jsonb, provider_message_id text, channel text, subject text)
         ON CONFLICT DO NOTHING RETURNING id, channel_id, provider_message_id, direction, "from", "to", body, status_history, published),
       windows AS (
         INSERT INTO customer_windows (channel_id, customer, last_inbound_at)
         SELECT w.channel_id, w.customer, max(w.at) FROM jsonb_to_recordset($2::jsonb) AS w(channel_id text, customer text, at timestamptz) GROUP BY w.channel_id, w.customer
         ON CONFLICT (channel_id, customer) DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at))
       SELECT * FROM stored`,
      [JSON.stringify(messages), JSON.stringify(windows)],
    )) as StoredInbound[];
  }

  /** findByProviderId for keys of any tenants, in one statement; those not stored are left out. */
  async findManyByProviderId(keys: readonly InboundKey[]): Promise<StoredInbound[]> {
    return (await this.db.query(
      `SELECT m.id, m.channel_id, m.provider_message_id, m.direction, m."from", m."to", m.body, m.status_history, m.published
       FROM messages m JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(tenant_id, channel_id, provider_message_id)
         ON m.tenant_id = x.tenant_id AND m.channel_id = x.channel_id AND m.provider_message_id = x.provider_message_id`,
      [keys.map((m) => m.tenant_id), keys.map((m) => m.channel_id), keys.map((m) => m.provider_message_id)],
    )) as StoredInbound[];
  }

  /** Records messages (of any tenants) as announced on `message.inbound`, in one statement. */
  async markPublished(ids: readonly string[]): Promise<void> {
    await this.db.query(`UPDATE messages SET published = true, updated_at = now() WHERE id = ANY($1::text[])`, [ids]);
  }
}
