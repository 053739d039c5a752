import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A send the fake received, as it arrived on the wire. */
export interface ReceivedSend {
  /** `''` and `null` for a 360dialog send (`POST /messages`), which names no version or number. */
  version: string;
  phoneNumberId: string | null;
  authorization: string | undefined;
  /** 360dialog's API key header. */
  d360ApiKey: string | undefined;
  /** When the fake received it (ms since the epoch): pacing is measured on these. */
  receivedAt: number;
  contentType: string | undefined;
  body: Record<string, unknown>;
  /** The wamid answered, when the send was accepted. */
  wamid?: string;
}

export interface ProvisionedNumber {
  phone_number: string;
  phone_number_id: string;
  display_phone_number: string;
}

interface ScriptedAnswer {
  status: number;
  body: unknown;
  /** Accept the send (a fresh wamid) but answer this late: a slow provider that took the message. */
  lateByMs?: number;
}

/** A Graph call of embedded signup as the fake received it. */
export interface GraphCall {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

/** The signup code the fake's token exchange refuses (like the sandbox's). */
export const FAKE_INVALID_CODE = 'invalid';

/**
 * A stand-in for the WhatsApp Cloud API (and the sandbox's number provisioning) in its real wire format:
 * `POST /{version}/{phone_number_id}/messages` answers `{messaging_product, contacts, messages: [{id}]}` or a
 * scripted Cloud API error; `POST /_sandbox/numbers {phone_number?}` answers `201 {phone_number, phone_number_id, display_phone_number}`
 * (`200` with the number it provisioned before when that one is asked for again),
 * the embedded-signup Graph routes (`GET /{v}/oauth/access_token`, `POST /{v}/{waba}/subscribed_apps`,
 * `POST /{v}/{id}/register`, `GET /{v}/{id}`) and 360dialog's `POST /messages` (`D360-API-KEY`).
 * It records everything it received.
 */
export class FakeCloudApi {
  readonly sends: ReceivedSend[] = [];
  readonly provisioned: ProvisionedNumber[] = [];
  readonly graphCalls: GraphCall[] = [];
  /** Graph steps that answer a server error instead (e.g. `register`), to exercise failures mid-signup. */
  readonly failingGraphSteps = new Set<'subscribed_apps' | 'register'>();
  private readonly scripted = new Map<string, ScriptedAnswer[]>();
  private server!: Server;
  url = '';

  static async start(): Promise<FakeCloudApi> {
    const fake = new FakeCloudApi();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    // Node's 5 s default would close an idle keep-alive socket just as the service's agent (no idle time-out) reuses
    // it: an ECONNRESET that leaves a send's outcome unknown for a minute, failing whichever spec it hits by chance.
    fake.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The next send to `to` gets this answer instead of an acceptance. */
  answerNext(to: string, status: number, body: unknown): void {
    this.scripted.set(to, [...(this.scripted.get(to) ?? []), { status, body }]);
  }

  /** The next send to `to` is accepted, but its answer comes `ms` late (after the caller's time-out, say). */
  answerNextLate(to: string, ms: number): void {
    this.scripted.set(to, [...(this.scripted.get(to) ?? []), { status: 200, body: null, lateByMs: ms }]);
  }

  sendsTo(to: string): ReceivedSend[] {
    return this.sends.filter((s) => s.body.to === to);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(url.pathname) ?? (url.pathname === '/messages' ? ['', '', null] : null);
    const graph = /^\/(v\d+\.\d+)\/(oauth\/access_token|[^/]+\/subscribed_apps|[^/]+\/register|\d+)$/.exec(url.pathname);
    if (graph && !send) return this.graph(req, res, url, graph[2], raw);
    if (req.method === 'POST' && req.url === '/_sandbox/numbers') {
      const requested = (JSON.parse(raw || '{}') as { phone_number?: string }).phone_number;
      const existing = this.provisioned.find((n) => n.phone_number === requested);
      if (existing) return reply(res, 200, existing);
      const digits = requested?.slice(1) ?? `1555${randomInt(1_000_000, 9_999_999)}`;
      const number = { phone_number: `+${digits}`, phone_number_id: String(randomInt(100_000_000, 999_999_999)), display_phone_number: digits };
      this.provisioned.push(number);
      return reply(res, 201, number);
    }
    if (req.method === 'POST' && send) {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const received: ReceivedSend = {
        version: send[1] ?? '',
        phoneNumberId: send[2] === null ? null : decodeURIComponent(send[2]),
        authorization: req.headers.authorization,
        d360ApiKey: req.headers['d360-api-key'] as string | undefined,
        receivedAt: Date.now(),
        contentType: req.headers['content-type'],
        body,
      };
      this.sends.push(received);
      const scripted = this.scripted.get(String(body.to))?.shift();
      if (scripted && scripted.lateByMs === undefined) return reply(res, scripted.status, scripted.body);
      received.wamid = `wamid.${randomBytes(18).toString('base64url')}`;
      if (scripted?.lateByMs) await new Promise((resolve) => setTimeout(resolve, scripted.lateByMs));
      if (res.destroyed) return; // the caller gave up waiting
      return reply(res, 200, acceptance(String(body.to), received.wamid));
    }
    reply(res, 404, { error: { message: 'Unknown path', type: 'OAuthException', code: 100 } });
  }

  private graph(req: IncomingMessage, res: ServerResponse, url: URL, route: string, raw: string): void {
    const call: GraphCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null,
    };
    this.graphCalls.push(call);
    if (route === 'oauth/access_token') {
      if (call.query.code === FAKE_INVALID_CODE) return reply(res, 400, { error: { message: 'Invalid verification code format.', type: 'OAuthException', code: 100, error_subcode: 36007 } });
      return reply(res, 200, { access_token: `EAAG${randomBytes(12).toString('hex')}`, token_type: 'bearer' });
    }
    const step = route.endsWith('/subscribed_apps') ? 'subscribed_apps' : route.endsWith('/register') ? 'register' : null;
    if (step && this.failingGraphSteps.has(step)) return reply(res, 500, { error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1 } });
    if (step) return reply(res, 200, { success: true });
    return reply(res, 200, { id: route, display_phone_number: '+1 555-010-' + route.slice(-4).padStart(4, '0'), verified_name: 'Test Business', quality_rating: 'GREEN' });
  }
}

/** The Cloud API's answer to an accepted send. */
export function acceptance(to: string, wamid: string) {
  return { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }], messages: [{ id: wamid }] };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A Cloud API error body as Meta answers it. */
export function cloudApiErrorBody(code: number, title: string, details = title) {
  return { error: { message: `(#${code}) ${title}`, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details }, fbtrace_id: 'AbCdEf123' } };
}
