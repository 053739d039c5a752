import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The raw body, byte for byte as sent. */
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What the n-th request (0-based) is answered with; an array's last entry repeats. */
export type Replies = Reply | Reply[] | ((n: number, req: ReceivedRequest) => Reply | Promise<Reply>);

/** A tenant's webhook receiver: a real HTTP server on 127.0.0.1 that records every request. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly replies: Replies,
  ) {}

  static async start(replies: Replies = { status: 200 }, path = '/hook'): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, replies);
    server.on('request', (req, res) => {
      void receiver
        .record(req)
        .then(({ received, n }) => receiver.replyTo(n, received))
        .then((reply) => {
          res.writeHead(reply.status, reply.headers ?? {});
          res.end(reply.body ?? '');
        });
    });
    return receiver;
  }

  /** Requests that carried this webhook-id. */
  withId(id: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.headers['webhook-id'] === id);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async record(req: IncomingMessage): Promise<{ received: ReceivedRequest; n: number }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const received = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
    const n = this.requests.push(received) - 1;
    return { received, n };
  }

  private async replyTo(n: number, received: ReceivedRequest): Promise<Reply> {
    if (typeof this.replies === 'function') return this.replies(n, received);
    if (Array.isArray(this.replies)) return this.replies[Math.min(n, this.replies.length - 1)];
    return this.replies;
  }
}
