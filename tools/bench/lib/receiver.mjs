// A tenant's webhook endpoint on 127.0.0.1: answers 204 at once (or never, when dead), checks every signature with
// the Standard Webhooks library, and hands each delivery to `onDelivery(body, headers, receivedAt)`.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const { Webhook } = require('standardwebhooks');

export class Receiver {
  count = 0;
  badSignatures = 0;
  /** Set once the endpoint exists (its secret comes from the webhook's creation). */
  verifier = null;

  static async start({ dead = false, onDelivery } = {}) {
    const receiver = new Receiver();
    receiver.server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        receiver.count += 1;
        if (dead) return; // never answers: every attempt runs into the service's time-out
        const body = Buffer.concat(chunks).toString('utf8');
        if (receiver.verifier) {
          try {
            receiver.verifier.verify(body, req.headers);
          } catch {
            receiver.badSignatures += 1;
          }
        }
        res.writeHead(204).end();
        onDelivery?.(body, req.headers, at);
      });
    });
    receiver.server.keepAliveTimeout = 30_000;
    await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${receiver.server.address().port}/hook`;
    return receiver;
  }

  useSecret(secret) {
    this.verifier = new Webhook(secret);
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}
