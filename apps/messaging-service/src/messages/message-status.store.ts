import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, MessageStatus } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { MessageEntity, type StatusEntry } from './message.entity';
import type { MessageRow } from './message-row';

/** The outbound message a provider status names: its wamid on one of the tenant's channels. */
export interface ProviderKey {
  tenantId: string;
  channelId: string;
  providerMessageId: string;
}

/** A message's new state after a batch of statuses, and how far its history is announced. */
export interface StatusWrite {
  id: string;
  status: MessageStatus;
  status_history: StatusEntry[];
  error: MessageError | null;
  announced: number;
}

/** How far a message's history is announced on `message.status`. */
export interface AnnouncedMark {
  id: string;
  announced: number;
}

/**
 * The SQL of outbound messages' statuses (MessageStatusService keeps the status machine and the announcements).
 * Messages are locked in id order everywhere, so batches over the same messages queue instead of deadlocking.
 */
@Injectable()
export class MessageStatusStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The tenant's outbound message, locked until `tx` ends; null when there is none. */
  lockOutbound(tenantId: string, messageId: string, tx: EntityManager): Promise<MessageEntity | null> {
    return tx.getRepository(MessageEntity).findOne({ where: { id: messageId, tenantId, direction: 'outbound' }, lock: { mode: 'pessimistic_write' } });
  }

  /** Writes back a message lockOutbound read in `tx`. */
  save(tenantId: string, message: MessageEntity, tx: EntityManager): Promise<MessageEntity> {
    if (message.tenantId !== tenantId) throw new Error(`message ${message.id} is not tenant ${tenantId}'s`);
    return tx.save(message);
  }

  /** The outbound messages the keys name (any tenants), locked in id order until `tx` ends; one statement. */
  async lockByProviderIds(keys: readonly ProviderKey[], tx: EntityManager): Promise<MessageRow[]> {
    return (await tx.query(
      `SELECT m.* FROM messages m
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(tenant_id, channel_id, provider_message_id)
         ON m.tenant_id = x.tenant_id AND m.channel_id = x.channel_id AND m.provider_message_id = x.provider_message_id
       WHERE m.direction = 'outbound'
       ORDER BY m.id FOR UPDATE OF m`,
      [keys.map((k) => k.tenantId), keys.map((k) => k.channelId), keys.map((k) => k.providerMessageId)],
    )) as MessageRow[];
  }

  /** The new states of messages lockByProviderIds locked in `tx`, in one statement. */
  async writeStatuses(writes: readonly StatusWrite[], tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE messages m SET status = x.status, status_history = x.status_history, error = x.error,
         announced_statuses = GREATEST(m.announced_statuses, x.announced), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, status text, status_history jsonb, error jsonb, announced int)
       WHERE m.id = x.id`,
      [JSON.stringify(writes)],
    );
  }

  /** Records how far each message is announced (never backwards), for messages of any tenants, in one statement. */
  async markAnnounced(marks: readonly AnnouncedMark[]): Promise<void> {
    // Rows are locked in id order, as lockByProviderIds locks them: two batches over the same messages then queue
    // behind each other instead of deadlocking (a soak saw it once in 30 minutes with the unordered UPDATE).
    await this.db.query(
      `WITH x AS (SELECT id, max(announced) AS announced FROM jsonb_to_recordset($1::jsonb) AS r(id text, announced int) GROUP BY id),
       locked AS MATERIALIZED (SELECT m.id FROM messages m JOIN x ON x.id = m.id ORDER BY m.id FOR UPDATE OF m)
       UPDATE messages m SET announced_statuses = GREATEST(m.announced_statuses, x.announced), updated_at = now()
       FROM x JOIN locked l ON l.id = x.id
       WHERE m.id = x.id`,
      [JSON.stringify(marks)],
    );
  }

  /** The tenant's outbound message with this wamid on the channel, or null. */
  findByProviderId(tenantId: string, channelId: string, providerMessageId: string): Promise<MessageEntity | null> {
    return this.db.getRepository(MessageEntity).findOne({ where: { tenantId, channelId, providerMessageId, direction: 'outbound' } });
  }
}
