import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageAttachment } from '@parley/contracts';
import { DataSource } from 'typeorm';
import type { MailAuthentication } from './mail-authentication';

/** A mail exchanged with the customer: its Message-ID and which way it went. */
export interface ExchangedMail {
  id: string;
  direction: 'inbound' | 'outbound';
}

/** The SQL of email threads and of what a customer's mail carries besides its text. */
@Injectable()
export class EmailStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The newest `limit` mails exchanged with the customer on the channel (both ways, newest first), `messageId` left out. */
  async exchanged(tenantId: string, channelId: string, customer: string, messageId: string, limit: number): Promise<ExchangedMail[]> {
    return (await this.db.query(
      `SELECT provider_message_id AS id, direction FROM messages
        WHERE tenant_id = $1 AND channel_id = $2 AND id <> $4 AND provider_message_id LIKE '<%>'
          AND ((direction = 'inbound' AND "from" = $3) OR (direction = 'outbound' AND "to" = $3))
        ORDER BY seq DESC LIMIT $5`,
      [tenantId, channelId, customer, messageId, limit],
    )) as ExchangedMail[];
  }

  /**
   * Records a customer's mail's attachments and authentication results with its stored message (the channel's mail
   * with this Message-ID; the channel id is the tenant-scoped key). Idempotent.
   */
  async recordExtras(channelId: string, providerMessageId: string, attachments: MessageAttachment[] | null, authentication: MailAuthentication | null): Promise<void> {
    await this.db.query(`UPDATE messages SET attachments = $3::jsonb, authentication = $4::jsonb WHERE channel_id = $1 AND provider_message_id = $2 AND direction = 'inbound'`, [
      channelId,
      providerMessageId,
      attachments ? JSON.stringify(attachments) : null,
      authentication ? JSON.stringify(authentication) : null,
    ]);
  }
}
