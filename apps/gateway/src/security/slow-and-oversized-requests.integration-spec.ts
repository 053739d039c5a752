import { DEFAULT_HTTP_TIMEOUTS, applyHttpTimeouts, loadConfig } from '@parley/service-kit';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { GatewayConfig } from '../config/gateway.config';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** Small deadlines for the test (the defaults are 10 s for headers and 30 s for the whole request). */
const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1500;
const CHECK_INTERVAL_MS = DEFAULT_HTTP_TIMEOUTS.HTTP_TIMEOUT_CHECK_INTERVAL_MS;
/** Scheduling slack on a loaded machine. */
const SLACK_MS = 1500;

interface RawExchange {
  /** Everything the server wrote before it closed the connection. */
  response: string;
  closedAfterMs: number;
}

/**
 * A client on a raw socket: writes `head`, then `drip` every `everyMs` until the server closes the connection (or
 * `giveUpMs` passes, which fails the test through `closedAfterMs`).
 */
function trickle(port: number, head: string, drip: string, everyMs: number, giveUpMs = 15_000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    let response = '';
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write(drip), everyMs);
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('data', (chunk) => (response += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
  });
}

const statusLine = (response: string) => response.split('\r\n')[0];
const problemOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

/**
 * Issue 9, attacker's pass: slow (slowloris) and oversized requests. A client trickling its headers or its body is
 * cut off within a bounded time with a problem+json 408; bodies over the limits are refused with 413 before they are
 * read; honest requests, slow-but-timely uploads and long-lived event streams are unaffected.
 */
describe('gateway security: slow and oversized requests (real PostgreSQL, Kafka and Redis)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let port: number;
  let server: Server;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwslow');
    server = gw.app.getHttpServer() as Server;
    port = (server.address() as { port: number }).port;
    account = await gw.signUp('Slow');
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('runs with bounded deadlines by default, and takes them from the environment', () => {
    expect({ headers: server.headersTimeout, request: server.requestTimeout }).toEqual({ headers: 10_000, request: 30_000 });
    const config = loadConfig(GatewayConfig, { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    applyHttpTimeouts(server, config);
    expect({ headers: server.headersTimeout, request: server.requestTimeout }).toEqual({ headers: HEADERS_TIMEOUT_MS, request: REQUEST_TIMEOUT_MS });
    expect(() => loadConfig(GatewayConfig, { HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('cuts off trickled headers, trickled bodies and stalled bodies within the bound, with a 408 problem; honest traffic goes on', async () => {
    // An open event stream outlives the request deadline: it bounds receiving the request, not answering it.
    let streamText = '';
    let streamClosed = false;
    const stream = connect(port, '127.0.0.1', () =>
      stream.write(`GET /api/v1/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nAccept: text/event-stream\r\n\r\n`),
    );
    stream.on('data', (chunk) => (streamText += chunk.toString('utf8')));
    stream.on('close', () => (streamClosed = true));

    const body = JSON.stringify({ name: 'slow' });
    const [headers, trickledBody, stalledBody] = await Promise.all([
      trickle(port, 'POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n', 100),
      trickle(port, `POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`, ' ', 100),
      trickle(port, `POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`, '', 60_000),
    ]);

    expect(headers.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(headers.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    for (const cut of [trickledBody, stalledBody]) {
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(cut.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    }
    for (const cut of [headers, trickledBody, stalledBody]) {
      expect(statusLine(cut.response)).toBe('HTTP/1.1 408 Request Timeout');
      expect(cut.response).toMatch(/content-type: application\/problem\+json/i);
      expect(problemOf(cut.response)).toMatchObject({ status: 408, type: 'https://parley.dev/problems/request-timeout', request_id: expect.any(String) });
    }

    expect(statusLine(streamText)).toBe('HTTP/1.1 200 OK');
    expect(streamClosed).toBe(false);
    // A slow upload that completes within the deadline is served.
    const slowButTimely = await new Promise<string>((resolve) => {
      const payload = JSON.stringify({ name: 'slow but timely' });
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`);
        socket.write(payload.slice(0, 5));
        setTimeout(() => socket.write(payload.slice(5)), REQUEST_TIMEOUT_MS / 3);
      });
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(statusLine(slowButTimely)).toBe('HTTP/1.1 201 Created');
    expect((await gw.request('GET', '/api/v1/api-keys', { token: account.api_key })).status).toBe(200);
    expect(streamClosed).toBe(false);
    stream.destroy();
  }, 30_000);

  it('refuses a declared body over 1 MiB with 413 before reading it, and a chunked one once it passes the limit', async () => {
    const declared = await trickle(
      port,
      `POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nContent-Type: application/json\r\nContent-Length: 5000000000\r\n\r\n{`,
      '',
      60_000,
    );
    expect(statusLine(declared.response)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(problemOf(declared.response)).toMatchObject({ status: 413, type: 'https://parley.dev/problems/payload-too-large' });
    // Answered at once, not after the request deadline.
    expect(declared.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS);

    const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
    const chunked = await trickle(
      port,
      `POST /api/v1/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.api_key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk.repeat(17)}`,
      '',
      60_000,
    );
    expect(statusLine(chunked.response)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(problemOf(chunked.response)).toMatchObject({ status: 413, type: 'https://parley.dev/problems/payload-too-large' });
  });

  it('answers 413 problem+json on an authenticated API route and on provider intake over its 10 MiB', async () => {
    const api = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'x'.repeat(1024 * 1024 + 1) } });
    expect(api.status).toBe(413);
    expect(api.headers.get('content-type')).toContain('application/problem+json');
    expect(api.body).toMatchObject({ status: 413, type: 'https://parley.dev/problems/payload-too-large' });

    const intake = await gw.request('POST', '/webhooks/whatsapp', {
      rawBody: `{"object":"whatsapp_business_account","pad":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
    });
    expect(intake.status).toBe(413);
    expect(intake.headers.get('content-type')).toContain('application/problem+json');
    expect(intake.body).toMatchObject({ status: 413, type: 'https://parley.dev/problems/payload-too-large' });
  });
});
