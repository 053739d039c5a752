import { Injectable, Logger } from '@nestjs/common';
import { isE164 } from '@parley/contracts';
import { randomBytes } from 'node:crypto';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { SmsMessagesStore, type SmsRow } from './sms-messages.store';
import { smsSegments } from './sms-segments';
import { twilioSignature } from './twilio-signing';

/** A Twilio REST error (`{code, message, more_info, status}`), answered with its HTTP status. */
export class TwilioApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  body() {
    return { code: this.code, message: this.message, more_info: `https://www.twilio.com/docs/errors/${this.code}`, status: this.status };
  }
}

/** A recorded SMS as the sandbox's test routes show it. */
export type SandboxSms = Pick<SmsRow, 'sid' | 'direction' | 'from' | 'to' | 'body' | 'num_segments' | 'status'> & { created_at: string };

/** Customers whose number ends in this get `undelivered` (ErrorCode 30003, unreachable handset). */
const UNDELIVERABLE_SUFFIX = '9999';
const CALLBACK_ATTEMPTS = 5;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const newSid = () => `SM${randomBytes(16).toString('hex')}`;

/**
 * Twilio's Messaging API as the sandbox plays it (CONTRACT.md §17): `Messages.json` records what a business sends and
 * reports `sent` then `delivered` (or `undelivered`) to its StatusCallback, signed like Twilio; a played customer's
 * SMS is posted to the gateway's SMS webhook, signed the same way.
 */
@Injectable()
export class SmsService {
  private readonly logger = new Logger(SmsService.name);

  constructor(
    private readonly messages: SmsMessagesStore,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  /** `POST /2010-04-01/Accounts/{sid}/Messages.json` after its Basic auth was checked. */
  async create(accountSid: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    const { To: to, From: from, Body: body, StatusCallback: statusCallback } = form;
    if (!to) throw new TwilioApiError(400, 21604, "A 'To' phone number is required.");
    if (!isE164(to)) throw new TwilioApiError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) throw new TwilioApiError(400, 21603, "A 'From' phone number is required.");
    if (!body) throw new TwilioApiError(400, 21602, 'Message body is required.');
    if (body.length > 1600) throw new TwilioApiError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const sid = newSid();
    const { segments } = smsSegments(body);
    const row = await this.messages.insertOutbound({ sid, accountSid, from, to, body, segments, statusCallback: statusCallback || null });
    if (statusCallback) void this.reportStatuses(row, statusCallback);
    return resource(row);
  }

  /** A customer texts the business: recorded, then posted to the gateway as Twilio's signed inbound webhook. */
  async receive(from: string, to: string, body: string): Promise<{ sid: string; webhook_status: number }> {
    const sid = newSid();
    await this.messages.insertInbound({ sid, accountSid: this.config.SANDBOX_TWILIO_ACCOUNT_SID, from, to, body, segments: smsSegments(body).segments });
    const params = {
      ToCountry: 'US',
      SmsMessageSid: sid,
      NumMedia: '0',
      SmsSid: sid,
      SmsStatus: 'received',
      Body: body,
      To: to,
      NumSegments: String(smsSegments(body).segments),
      MessageSid: sid,
      AccountSid: this.config.SANDBOX_TWILIO_ACCOUNT_SID,
      From: from,
      ApiVersion: '2010-04-01',
    };
    return { sid, webhook_status: await this.post(this.config.twilioSmsUrl, params) };
  }

  async list(filter: { to?: string; from?: string }): Promise<SandboxSms[]> {
    const rows = await this.messages.list(phone(filter.to), phone(filter.from));
    return rows.map((r) => ({ sid: r.sid, direction: r.direction, from: r.from, to: r.to, body: r.body, num_segments: r.num_segments, status: r.status, created_at: r.created_at.toISOString() }));
  }

  /** `sent`, then `delivered` (or `undelivered` for a number ending in 9999), each posted once taken (a few retries). */
  private async reportStatuses(row: SmsRow, url: string): Promise<void> {
    const undeliverable = row.to.endsWith(UNDELIVERABLE_SUFFIX);
    for (const status of ['sent', undeliverable ? 'undelivered' : 'delivered']) {
      await this.messages.setStatus(row.sid, status);
      const params: Record<string, string> = {
        AccountSid: row.account_sid,
        ApiVersion: '2010-04-01',
        From: row.from,
        MessageSid: row.sid,
        MessageStatus: status,
        SmsSid: row.sid,
        SmsStatus: status,
        To: row.to,
        ...(status === 'undelivered' ? { ErrorCode: '30003' } : {}),
      };
      for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
        const answer = await this.post(url, params).catch(() => 0);
        if (answer >= 200 && answer < 300) break;
        this.logger.warn(`status callback ${status} of ${row.sid} answered ${answer} (attempt ${attempt})`);
        await sleep(250 * 2 ** attempt);
      }
    }
  }

  /** Posts a form as Twilio does, signed with the account's auth token; answers the HTTP status. */
  private async post(url: string, params: Record<string, string>): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(this.config.SANDBOX_TWILIO_AUTH_TOKEN, url, params), 'user-agent': 'TwilioProxy/1.1' },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }
}

/** A `+` in a query string arrives as a space. */
function phone(value: string | undefined): string | null {
  if (!value) return null;
  const digits = value.replace(/\D/g, '');
  return digits ? `+${digits}` : null;
}

/** Twilio's Message resource (the fields a client reads). */
function resource(row: SmsRow): Record<string, unknown> {
  const at = row.created_at.toUTCString();
  return {
    sid: row.sid,
    account_sid: row.account_sid,
    from: row.from,
    to: row.to,
    body: row.body,
    status: row.status,
    num_segments: String(row.num_segments),
    num_media: '0',
    direction: row.direction,
    api_version: '2010-04-01',
    date_created: at,
    date_updated: at,
    date_sent: null,
    price: null,
    price_unit: 'USD',
    error_code: null,
    error_message: null,
    messaging_service_sid: null,
    uri: `/2010-04-01/Accounts/${row.account_sid}/Messages/${row.sid}.json`,
  };
}
