import { conversationKey, type WebhookDeliveryRecord } from '@parley/contracts';
import { KafkaHarness, pollUntil } from '@parley/testing';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RESPONSE_EXCERPT_CHARS } from './egress/webhook-http-client';
import { CUSTOMER, messageReceived } from './test/events';
import { startWebhookService, type WebhookServiceUnderTest } from './test/webhook-service-under-test';

/** Small, so a trickling receiver runs into it quickly. */
const TIMEOUT_MS = 500;

/** Receivers that misbehave below the HTTP status level: resets, slow trickles, huge bodies. */
describe('webhook-service: receivers that reset, trickle or flood', () => {
  let service: WebhookServiceUnderTest;
  let kafka: KafkaHarness;
  const servers: Server[] = [];

  /** A real receiver on 127.0.0.1; the handler sees the n-th request (0-based) after its body was read. */
  const serve = async (handler: (n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; count: () => number }> => {
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => handler(n++, req, res));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => n };
  };

  const deliver = async (tenantId: string, url: string, wanted: WebhookDeliveryRecord['status']): Promise<WebhookDeliveryRecord> => {
    const endpoint = await kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body: { url } });
    const event = messageReceived(tenantId, { message: 'Is the cake ready?' });
    await kafka.publisher.publishEvent(event, conversationKey(tenantId, CUSTOMER), undefined, { timeoutMs: 10_000 });
    return pollUntil(
      async () => {
        const page = await kafka.rpc.request('deliveries.list', { tenant_id: tenantId, endpoint_id: endpoint.id, status: wanted, limit: 10, cursor: null });
        return page.data.find((d) => d.event_id === event.id);
      },
      { description: `delivery of ${event.id} to be ${wanted}`, timeoutMs: 20_000 },
    );
  };

  beforeAll(async () => {
    service = await startWebhookService('webhookfail', { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    ({ kafka } = service);
  });

  afterAll(async () => {
    await service?.close();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('records a connection reset mid-response as a failed attempt and retries it', async () => {
    const resetting = await serve((n, _req, res) => {
      if (n < 2) {
        // Half a response, then the connection is torn down.
        res.socket?.write('HTTP/1.1 200 OK\r\ncontent-le');
        res.socket?.destroy();
        return;
      }
      res.writeHead(204).end();
    });
    const delivery = await deliver('ten_reset', resetting.url, 'succeeded');
    expect(delivery.attempt_count).toBe(3);
    expect(delivery.attempts.slice(0, 2)).toEqual([
      expect.objectContaining({ attempt: 1, status_code: null, error: expect.stringMatching(/ECONNRESET|hang up|Parse Error/i), response_excerpt: null }),
      expect.objectContaining({ attempt: 2, status_code: null, error: expect.stringMatching(/ECONNRESET|hang up|Parse Error/i), response_excerpt: null }),
    ]);
    expect(delivery.attempts[2]).toMatchObject({ attempt: 3, status_code: 204, error: null });
    expect(resetting.count()).toBe(3);
  });

  it('records a response trickling in past the time-out as a failed attempt and retries it', async () => {
    const timers: NodeJS.Timeout[] = [];
    const trickling = await serve((n, _req, res) => {
      if (n === 0) {
        // The status line, then one header byte every 50 ms: the head never completes within the time-out.
        const socket = res.socket!;
        socket.write('HTTP/1.1 200 OK\r\n');
        const timer = setInterval(() => socket.writable && socket.write('x'), 50);
        timers.push(timer);
        socket.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200).end('ok');
    });
    try {
      const delivery = await deliver('ten_trickle', trickling.url, 'succeeded');
      expect(delivery.attempt_count).toBe(2);
      const [first, second] = delivery.attempts;
      expect(first).toMatchObject({ attempt: 1, status_code: null, error: expect.stringMatching(/^timed out after \d+ ms$/) });
      // Cut at the deadline, not left hanging for as long as the receiver keeps trickling.
      expect(first.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(first.duration_ms).toBeLessThan(TIMEOUT_MS + 1000);
      expect(second).toMatchObject({ attempt: 2, status_code: 200, error: null, response_excerpt: 'ok' });
    } finally {
      timers.forEach(clearInterval);
    }
  });

  it('caps the stored excerpt of a huge response body and still completes the attempt', async () => {
    const huge = 'z'.repeat(4 * 1024 * 1024);
    const flooding = await serve((_n, _req, res) => {
      res.on('error', () => undefined); // we stop reading and close; the receiver's write may fail
      res.writeHead(200, { 'content-type': 'text/plain' }).end(huge);
    });
    const delivery = await deliver('ten_huge', flooding.url, 'succeeded');
    expect(delivery.attempt_count).toBe(1);
    const [attempt] = delivery.attempts;
    expect(attempt).toMatchObject({ attempt: 1, status_code: 200, error: null });
    expect(attempt.response_excerpt).toBe('z'.repeat(RESPONSE_EXCERPT_CHARS));
    expect(attempt.duration_ms).toBeLessThan(TIMEOUT_MS);
    expect(flooding.count()).toBe(1);
  });
});
