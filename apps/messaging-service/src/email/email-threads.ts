import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The threading headers of a reply (RFC 5322 §3.6.4): the mail it answers, and the thread's Message-IDs oldest first. */
export interface EmailThread {
  inReplyTo: string;
  references: string[];
}

/** Message-IDs a References header carries at most (mail clients thread on the first and the last few). */
const MAX_REFERENCES = 10;

/**
 * Where an outbound email sits in its thread with the customer on this channel: the customer's latest mail is what it
 * answers (`In-Reply-To`), and the Message-IDs exchanged so far, both ways, are its `References`. Our own Message-IDs
 * are `<message id@our domain>` (the provider id each sent mail is recorded with), so the customer's answer names ours.
 * Nothing when the customer never wrote: a first mail starts a thread.
 */
@Injectable()
export class EmailThreads {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async of(tenantId: string, channelId: string, customer: string, messageId: string): Promise<EmailThread | null> {
    const rows = (await this.db.query(
      `SELECT provider_message_id AS id, direction FROM messages
        WHERE tenant_id = $1 AND channel_id = $2 AND id <> $4 AND provider_message_id LIKE '<%>'
          AND ((direction = 'inbound' AND "from" = $3) OR (direction = 'outbound' AND "to" = $3))
        ORDER BY seq DESC LIMIT $5`,
      [tenantId, channelId, customer, messageId, MAX_REFERENCES],
    )) as { id: string; direction: 'inbound' | 'outbound' }[];
    const answered = rows.find((r) => r.direction === 'inbound');
    if (!answered) return null;
    return { inReplyTo: answered.id, references: rows.map((r) => r.id).reverse() };
  }
}
