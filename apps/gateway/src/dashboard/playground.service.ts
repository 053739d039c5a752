import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem, validationProblem, type ChannelRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { DashboardConfig } from './dashboard.config';
import type { PlaygroundChannel, PlaygroundInboundBody } from './playground.dto';

/**
 * A message the sandbox delivered to a customer's phone (the sandbox's `/_sandbox/messages` shape); a text message
 * (`channel: "sms"`) in the same shape, with the SMS number it came `from` and no `phone_number_id`.
 */
export interface PlaygroundMessage {
  id: string;
  channel: PlaygroundChannel;
  phone_number_id: string | null;
  from?: string;
  to: string;
  type: string;
  text?: { body: string };
  timestamp: string;
}

/** The sandbox's answer to a customer writing in: `queued` when the gateway did not take it yet (the sandbox retries it). */
export interface PlaygroundWriteAnswer {
  id: string;
  queued?: true;
}

/** A text message in the sandbox's SMS record (`/_sandbox/sms/messages`). */
interface SandboxSms {
  sid: string;
  direction: 'outbound-api' | 'inbound';
  from: string;
  to: string;
  body: string;
  created_at: string;
}

const SANDBOX_TIMEOUT_MS = 15_000;
/** Twilio's longest message body (ten concatenated segments). */
const SMS_MAX_CHARS = 1600;
const digits = (phone: string) => phone.replace(/\D/g, '');
/** Records written before SMS existed carry no kind: they are WhatsApp numbers. */
const kindOf = (c: ChannelRecord) => c.channel ?? 'whatsapp';

/**
 * The dashboard's playground (development only): the browser cannot reach the WhatsApp sandbox (another origin), so
 * the gateway relays the two sandbox calls it needs, each limited to the caller's own numbers.
 */
@Injectable()
export class PlaygroundService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly sandboxConfig: DashboardConfig,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * Writes `text` (or sends a photo) to the tenant's number `to` as the customer `from`. The sandbox answers `{id}` once the gateway took
   * the message, or `{id, queued: true}` (its 202) when the gateway did not: it keeps delivering it, as WhatsApp does.
   */
  async customerWrites(tenantId: string, body: PlaygroundInboundBody, requestId: string): Promise<PlaygroundWriteAnswer> {
    this.ensureEnabled();
    const kind = body.channel ?? 'whatsapp';
    const channels = (await this.channels(tenantId, requestId)).filter((c) => kindOf(c) === kind);
    if (!channels.some((c) => digits(c.phone_number) === digits(body.to))) {
      const which = kind === 'sms' ? 'SMS' : 'WhatsApp';
      throw new ProblemException(validationProblem([{ field: 'to', message: `to must be one of your connected ${which} numbers` }]));
    }
    // The conversation this starts (or continues) is the playground's, not a real customer's (issue 32): said before
    // the customer writes, so even the first message lands in a conversation marked so.
    await this.rpc.request('conversations.playground-customer', { tenant_id: tenantId, customer: body.from }, { requestId });
    if (kind === 'whatsapp') {
      const { channel: _kind, ...message } = body; // the sandbox's WhatsApp route knows no `channel`
      return this.sandbox<PlaygroundWriteAnswer>('/_sandbox/inbound', { method: 'POST', body: JSON.stringify(message), headers: { 'content-type': 'application/json' } });
    }
    if ((body.type ?? 'text') !== 'text') throw new ProblemException(validationProblem([{ field: 'type', message: 'type must be text for an SMS' }]));
    if ((body.text ?? '').length > SMS_MAX_CHARS) throw new ProblemException(validationProblem([{ field: 'text', message: `text must be at most ${SMS_MAX_CHARS} characters for an SMS` }]));
    // The sandbox posts the signed Twilio webhook at once and does not retry it: a refused webhook is the platform's failure.
    const sms = { from: body.from, to: body.to, body: body.text };
    const answer = await this.sandbox<{ sid: string; webhook_status: number }>('/_sandbox/sms/inbound', { method: 'POST', body: JSON.stringify(sms), headers: { 'content-type': 'application/json' } });
    if (answer.webhook_status >= 300) {
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', `The SMS webhook answered ${answer.webhook_status}; write again.`));
    }
    return { id: answer.sid };
  }

  /** What the tenant's numbers delivered to `customer` on WhatsApp and by SMS, oldest first. */
  async deliveredTo(tenantId: string, customer: string, requestId: string): Promise<{ data: PlaygroundMessage[] }> {
    this.ensureEnabled();
    const channels = await this.channels(tenantId, requestId);
    const ours = new Set(channels.filter((c) => kindOf(c) === 'whatsapp').map((c) => c.phone_number_id).filter((id) => id !== null));
    const ourSms = new Set(channels.filter((c) => kindOf(c) === 'sms').map((c) => digits(c.phone_number)));
    const query = `?to=${encodeURIComponent(customer)}`;
    const [whatsapp, sms] = await Promise.all([
      this.sandbox<{ data: Omit<PlaygroundMessage, 'channel'>[] }>(`/_sandbox/messages${query}`, { method: 'GET' }),
      ourSms.size > 0 ? this.sandbox<{ data: SandboxSms[] }>(`/_sandbox/sms/messages${query}`, { method: 'GET' }) : { data: [] },
    ]);
    const texts: PlaygroundMessage[] = sms.data
      .filter((m) => m.direction === 'outbound-api' && ourSms.has(digits(m.from)))
      .map((m) => ({ id: m.sid, channel: 'sms', phone_number_id: null, from: m.from, to: m.to, type: 'text', text: { body: m.body }, timestamp: m.created_at }));
    return {
      data: [...whatsapp.data.filter((m) => m.phone_number_id !== null && ours.has(m.phone_number_id)).map((m) => ({ ...m, channel: 'whatsapp' as const })), ...texts].sort(
        (a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp),
      ),
    };
  }

  private ensureEnabled(): void {
    if (this.config.isProduction || !this.config.SANDBOX_ENABLED) {
      throw new ProblemException(problem(404, ProblemTypes.notFound, 'Not Found', 'The playground exists only in development, with the WhatsApp sandbox enabled.'));
    }
  }

  private async channels(tenantId: string, requestId: string): Promise<ChannelRecord[]> {
    return (await this.rpc.request('channels.list', { tenant_id: tenantId, limit: 100, cursor: null }, { requestId })).data;
  }

  private async sandbox<T>(path: string, init: RequestInit): Promise<T> {
    const unavailable = (why: string) =>
      new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', `The WhatsApp sandbox did not answer (${why}).`));
    let res: Response;
    try {
      res = await fetch(`${this.sandboxConfig.SANDBOX_URL}${path}`, { ...init, signal: AbortSignal.timeout(SANDBOX_TIMEOUT_MS) });
    } catch (err) {
      throw unavailable(err instanceof Error ? err.message : String(err));
    }
    if (!res.ok) throw unavailable(`status ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  }
}
