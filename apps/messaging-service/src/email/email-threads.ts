import { Injectable } from '@nestjs/common';
import { EmailStore } from './email.store';

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
  constructor(private readonly store: EmailStore) {}

  async of(tenantId: string, channelId: string, customer: string, messageId: string): Promise<EmailThread | null> {
    const rows = await this.store.exchanged(tenantId, channelId, customer, messageId, MAX_REFERENCES);
    const answered = rows.find((r) => r.direction === 'inbound');
    if (!answered) return null;
    return { inReplyTo: answered.id, references: rows.map((r) => r.id).reverse() };
  }
}
