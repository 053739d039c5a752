import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, byte for byte, as a signature check needs it. */
  body: string;
}

/** A tenant's webhook endpoint: a real HTTP server on 127.0.0.1 that records every delivery and answers 204. */
export class WebhookReceiver {
  private constructor(
    private readonly server: Server,
    /** Where to register the webhook. */
    readonly url: string,
    /** Every delivery so far, oldest first. */
    readonly received: ReceivedWebhook[],
  ) {}

  static async start(path = '/parley-events'): Promise<WebhookReceiver> {
    const received: ReceivedWebhook[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === path) received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(req.method === 'POST' && req.url === path ? 204 : 404).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`, received);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
