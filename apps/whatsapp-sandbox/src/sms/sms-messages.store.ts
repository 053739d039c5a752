import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** An SMS as the sandbox's Twilio recorded it. */
export interface SmsRow {
  sid: string;
  account_sid: string;
  direction: 'outbound-api' | 'inbound';
  from: string;
  to: string;
  body: string;
  num_segments: number;
  status: string;
  status_callback: string | null;
  created_at: Date;
}

/** The SMS the sandbox's Twilio took and received, by message sid. */
@Injectable()
export class SmsMessagesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A message a client sent, `queued`. */
  async insertOutbound(sms: { sid: string; accountSid: string; from: string; to: string; body: string; segments: number; statusCallback: string | null }): Promise<SmsRow> {
    const [row] = (await this.db.query(
      `INSERT INTO sms_messages (sid, account_sid, direction, "from", "to", body, num_segments, status, status_callback)
       VALUES ($1, $2, 'outbound-api', $3, $4, $5, $6, 'queued', $7) RETURNING *`,
      [sms.sid, sms.accountSid, sms.from, sms.to, sms.body, sms.segments, sms.statusCallback],
    )) as SmsRow[];
    return row;
  }

  /** A message a customer sent the business, `received`. */
  async insertInbound(sms: { sid: string; accountSid: string; from: string; to: string; body: string; segments: number }): Promise<void> {
    await this.db.query(`INSERT INTO sms_messages (sid, account_sid, direction, "from", "to", body, num_segments, status) VALUES ($1, $2, 'inbound', $3, $4, $5, $6, 'received')`, [
      sms.sid,
      sms.accountSid,
      sms.from,
      sms.to,
      sms.body,
      sms.segments,
    ]);
  }

  /** The newest 200, to and from the numbers given. */
  list(to: string | null, from: string | null): Promise<SmsRow[]> {
    return this.db.query(`SELECT * FROM sms_messages WHERE ($1::text IS NULL OR "to" = $1) AND ($2::text IS NULL OR "from" = $2) ORDER BY created_at DESC, sid LIMIT 200`, [to, from]);
  }

  async setStatus(sid: string, status: string): Promise<void> {
    await this.db.query(`UPDATE sms_messages SET status = $2 WHERE sid = $1`, [sid, status]);
  }
}
