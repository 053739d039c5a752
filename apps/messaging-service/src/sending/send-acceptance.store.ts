import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MessageRow } from '../messages/message-row';

/** A provider's id for an outbound message of the tenant, sent from `channelId`. */
export interface Acceptance {
  tenantId: string;
  messageId: string;
  channelId: string;
  providerMessageId: string;
}

/** A message named by an acceptance: `recorded` when this statement wrote its provider id, else as it was. */
export type AcceptanceRow = MessageRow & { recorded: boolean };

/** The SQL of recording provider ids (SendAcceptance keeps which acceptance won and what a duplicate means). */
@Injectable()
export class SendAcceptanceStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One statement for a batch across tenants: records each provider id where the message has none yet (the tenant's
   * outbound message on that channel, not failed), removes those messages from the send queue, and answers every
   * named message (accepted ones as written, the others as they are).
   */
  async recordProviderIds(batch: readonly Acceptance[]): Promise<AcceptanceRow[]> {
    const input = batch.map((a) => ({ id: a.messageId, tenant_id: a.tenantId, channel_id: a.channelId, provider_message_id: a.providerMessageId }));
    return (await this.db.query(
      `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, tenant_id text, channel_id text, provider_message_id text)),
       accepted AS (
         UPDATE messages m SET provider_message_id = x.provider_message_id, updated_at = now()
         FROM x
         WHERE m.id = x.id AND m.tenant_id = x.tenant_id AND m.channel_id = x.channel_id AND m.direction = 'outbound'
           AND m.provider_message_id IS NULL AND m.status <> 'failed'
         RETURNING m.*),
       dequeued AS (DELETE FROM send_queue q USING accepted a WHERE q.message_id = a.id AND q.tenant_id = a.tenant_id)
       SELECT true AS recorded, a.* FROM accepted a
       UNION ALL
       SELECT DISTINCT ON (m.id) false AS recorded, m.* FROM x JOIN messages m ON m.id = x.id AND m.tenant_id = x.tenant_id
       WHERE NOT EXISTS (SELECT 1 FROM accepted a WHERE a.id = x.id)`,
      [JSON.stringify(input)],
    )) as AcceptanceRow[];
  }
}
