import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A mail as the sink received it: the SMTP envelope and what the parsed message says. */
export interface ReceivedEmail {
  envelope_from: string | null;
  /** Lower-cased. */
  envelope_to: string[];
  from: string | null;
  to: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  size: number;
}

/** The mails the sandbox's SMTP sink received. */
@Injectable()
export class EmailsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(mail: ReceivedEmail): Promise<void> {
    await this.db.query(
      `INSERT INTO emails (envelope_from, envelope_to, "from", "to", subject, text, html, message_id, in_reply_to, size) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [mail.envelope_from, mail.envelope_to, mail.from, mail.to, mail.subject, mail.text, mail.html, mail.message_id, mail.in_reply_to, mail.size],
    );
  }

  /** The newest 200, to an envelope address (any case) when given. */
  list(to: string | null): Promise<(ReceivedEmail & { id: string; received_at: Date })[]> {
    return this.db.query(`SELECT * FROM emails WHERE $1::text IS NULL OR lower($1) = ANY (envelope_to) ORDER BY id DESC LIMIT 200`, [to]);
  }
}
