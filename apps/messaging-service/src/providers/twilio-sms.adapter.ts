import type { OutboundContent } from '@parley/contracts';
import { networkError } from './cloud-api.errors';
import { postJson, type JsonAnswer } from './http-post';
import { ProviderError, type ProviderSendResult, type ProviderSender, type WhatsappProviderAdapter } from './whatsapp-provider';

/** Twilio error codes that heal by themselves: queue overflow and rate limits; everything else is terminal. */
const RETRYABLE_TWILIO_CODES: ReadonlySet<number> = new Set([20429, 30001, 14107]);

/** Twilio's answer to a message create (the parts read) and its error body. */
interface TwilioMessageAnswer {
  sid?: string;
  status?: string;
  code?: number;
  message?: string;
  more_info?: string;
}

/**
 * Twilio's Programmable Messaging API: `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded
 * `To`, `From`, `Body` and `StatusCallback`, HTTP Basic auth with the account SID and auth token. The sandbox speaks
 * the same route, so `sandbox` SMS channels use this adapter with the sandbox's base URL.
 */
export class TwilioSmsAdapter implements WhatsappProviderAdapter {
  constructor(
    private readonly baseUrl: string,
    private readonly statusCallbackUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async send(sender: ProviderSender, to: string, content: OutboundContent): Promise<ProviderSendResult> {
    if (content.type !== 'text') throw new ProviderError('unsupported_content', 'Only text can be sent by SMS', false);
    const { account_sid: sid, auth_token: token } = JSON.parse(sender.accessToken) as { account_sid: string; auth_token: string };
    const url = `${this.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`;
    const form = new URLSearchParams({ To: to, From: sender.address, Body: content.text, StatusCallback: this.statusCallbackUrl });
    let answer: JsonAnswer;
    try {
      answer = await postJson(
        url,
        { authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        form.toString(),
        this.timeoutMs,
      );
    } catch (err) {
      throw networkError(err);
    }
    const body = (answer.body ?? {}) as TwilioMessageAnswer;
    if (answer.status < 200 || answer.status >= 300) throw twilioError(answer.status, body);
    if (typeof body.sid !== 'string' || !body.sid) throw new ProviderError('invalid_response', 'The SMS provider answered without a message sid', false);
    return { providerMessageId: body.sid };
  }
}

/** Maps a non-2xx Twilio answer (`{code, message, more_info, status}`) to a ProviderError. */
export function twilioError(httpStatus: number, body: TwilioMessageAnswer): ProviderError {
  const retriable = httpStatus >= 500 || httpStatus === 429 || (typeof body.code === 'number' && RETRYABLE_TWILIO_CODES.has(body.code));
  const code = typeof body.code === 'number' ? String(body.code) : `http_${httpStatus}`;
  return new ProviderError(code, body.message || `The SMS provider answered HTTP ${httpStatus}`, retriable, body.more_info);
}
