import type { MessageError, OutboundStatus } from '@parley/contracts';
import { normalisePhone } from '../common/phone';
import type { IncomingStatus } from '../messages/status-machine';
import type { NormalisedInbound } from './normalise';

/** What one Twilio SMS webhook (form-encoded) says: a customer's message, a status of one we sent, or nothing we use. */
export type TwilioSmsEvent =
  | { kind: 'inbound'; message: NormalisedInbound }
  | { kind: 'status'; providerMessageId: string; status: IncomingStatus }
  | { kind: 'ignored'; reason: string };

/**
 * Twilio's `MessageStatus` values onto our one-way status machine (CONTRACT.md §4): `queued`/`accepted`/`sending` add
 * nothing to our `sent`; `undelivered` and `failed` are failures, with Twilio's `ErrorCode`.
 */
const STATUS_MAP: Readonly<Record<string, OutboundStatus>> = { sent: 'sent', delivered: 'delivered', read: 'read', undelivered: 'failed', failed: 'failed' };

/** Parses a Twilio Messaging webhook body (an inbound SMS, or a status callback of one we sent). */
export function parseTwilioSmsWebhook(rawBody: string, receivedAt: string): TwilioSmsEvent {
  const form = new URLSearchParams(rawBody);
  const sid = form.get('MessageSid') ?? form.get('SmsSid');
  if (!sid) return { kind: 'ignored', reason: 'no MessageSid' };
  const messageStatus = form.get('MessageStatus');
  if (messageStatus && messageStatus !== 'received') {
    const status = STATUS_MAP[messageStatus];
    if (!status) return { kind: 'ignored', reason: `status ${messageStatus} adds nothing to sent` };
    return { kind: 'status', providerMessageId: sid, status: { status, at: receivedAt, error: status === 'failed' ? twilioStatusError(form, messageStatus) : undefined } };
  }
  const from = form.get('From');
  if (!from) return { kind: 'ignored', reason: 'no From' };
  const media = Number(form.get('NumMedia') ?? '0');
  const body = form.get('Body') ?? '';
  const text = media > 0 ? `${body}${body ? ' ' : ''}[${media} attachment${media > 1 ? 's' : ''}]` : body;
  return { kind: 'inbound', message: { providerMessageId: sid, from: normalisePhone(from), fromUserId: null, type: 'text', text, sentAt: null, contactName: null } };
}

function twilioStatusError(form: URLSearchParams, messageStatus: string): MessageError {
  const code = form.get('ErrorCode');
  return { code: code || messageStatus, title: messageStatus === 'undelivered' ? 'The carrier could not deliver the SMS' : 'The SMS could not be sent' };
}
