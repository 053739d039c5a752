import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudNotification } from '../cloud-api/notifications';

export interface ReceivedNotification {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: CloudNotification;
  /** Whether `X-Hub-Signature-256` is the HMAC-SHA256 of the raw bytes under the app secret (checked as a gateway must). */
  signatureValid: boolean;
  /** What the receiver answered. */
  answered: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** Verifies a Meta signature independently of the sandbox's own code: raw bytes, hex HMAC-SHA256, constant time. */
export function verifyHubSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', secret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A local HTTP server standing in for the gateway's `/webhooks/whatsapp`: records every notification with its raw
 * body and signature check, and answers what `respond` decides (200 by default).
 */
export class GatewayReceiver {
  readonly received: ReceivedNotification[] = [];

  private constructor(
    private readonly server: Server,
    private readonly respond: (body: CloudNotification, attempt: number) => number,
  ) {}

  static async start(appSecret: string, respond: (body: CloudNotification, attempt: number) => number = () => 200, port = 0): Promise<GatewayReceiver> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = JSON.parse(raw.toString('utf8')) as CloudNotification;
        const attempt = receiver.received.filter((r) => r.raw.equals(raw)).length + 1;
        const answered = receiver.respond(body, attempt);
        const signature = req.headers['x-hub-signature-256'];
        receiver.received.push({
          path: req.url ?? '',
          headers: req.headers,
          raw,
          body,
          signatureValid: verifyHubSignature(raw, typeof signature === 'string' ? signature : undefined, appSecret),
          answered,
          at: Date.now(),
        });
        res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'EVENT_RECEIVED' : 'no');
      });
    });
    const receiver = new GatewayReceiver(server, respond);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The statuses the receiver accepted (200) for one wamid, in arrival order. */
  statusesOf(wamid: string): string[] {
    return this.received
      .filter((r) => r.answered === 200)
      .flatMap((r) => r.body.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? [])))
      .filter((s) => s.id === wamid)
      .map((s) => s.status);
  }

  /** Every delivery attempt carrying the given wamid (as a status or as an inbound message). */
  attemptsFor(wamid: string): ReceivedNotification[] {
    return this.received.filter((r) =>
      r.body.entry.some((e) => e.changes.some((c) => c.value.statuses?.some((s) => s.id === wamid) || c.value.messages?.some((m) => m.id === wamid))),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
