'use strict';
// Every tenant's webhook endpoint in one local HTTP server, each tenant on a path of its own with a secret of its own,
// failing a share of the requests as a real receiver does: 500s, time-outs (never answered), connection resets. Only
// a request answered 2xx counts as delivered; each is checked against the tenant whose path it came to (signature
// with that tenant's secret, the event's tenant).
const { randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');

const FAILURES = ['500', 'timeout', 'reset'];

class FlakyReceiver {
  /** @param {{failureRate: number, holdMs?: number, random?: () => number}} options */
  static async start({ failureRate, holdMs = 5000, random = Math.random }) {
    const receiver = new FlakyReceiver(failureRate, holdMs, random);
    await new Promise((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, '127.0.0.1', resolve);
    });
    receiver.base = `http://127.0.0.1:${receiver.server.address().port}`;
    return receiver;
  }

  constructor(failureRate, holdMs, random) {
    this.failureRate = failureRate;
    this.holdMs = holdMs;
    this.random = random;
    /** path → {tenantId, verifier} */
    this.endpoints = new Map();
    /** Every request answered 2xx: `{path, tenantId, webhookId, event, verified}`. */
    this.delivered = [];
    /** Requests failed on purpose, by kind. */
    this.injected = { 500: 0, timeout: 0, reset: 0 };
    /** Requests to a path no tenant has. */
    this.unknownPath = 0;
    this.held = new Set();
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 30_000;
  }

  /** A distinct, unguessable path for one tenant; `useSecret` once its webhook exists. */
  endpointFor(tenantId) {
    const path = `/hooks/${tenantId}/${randomBytes(6).toString('hex')}`;
    this.endpoints.set(path, { tenantId, verifier: null });
    return { path, url: `${this.base}${path}` };
  }

  useSecret(path, secret) {
    this.endpoints.get(path).verifier = new Webhook(secret);
  }

  handle(req, res) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const endpoint = this.endpoints.get(req.url);
      if (!endpoint) {
        this.unknownPath++;
        res.writeHead(404).end();
        return;
      }
      if (this.random() < this.failureRate) {
        const kind = FAILURES[Math.floor(this.random() * FAILURES.length)];
        this.injected[kind]++;
        if (kind === '500') res.writeHead(500, { 'content-type': 'text/plain' }).end('injected failure');
        else if (kind === 'reset') req.socket.resetAndDestroy();
        else {
          // Never answered: the service's own time-out gives up first; the socket is dropped later.
          const timer = setTimeout(() => {
            this.held.delete(timer);
            req.socket.destroy();
          }, this.holdMs);
          this.held.add(timer);
        }
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        endpoint.verifier?.verify(body, req.headers);
        verified = endpoint.verifier !== null;
      } catch {
        verified = false;
      }
      let event = null;
      try {
        event = JSON.parse(body);
      } catch {
        /* recorded as it is: not an event */
      }
      this.delivered.push({ path: req.url, tenantId: endpoint.tenantId, webhookId: String(req.headers['webhook-id'] ?? ''), event, verified });
      res.writeHead(204).end();
    });
  }

  close() {
    for (const timer of this.held) clearTimeout(timer);
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

module.exports = { FlakyReceiver };
