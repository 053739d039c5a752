import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RESPONSE_EXCERPT_CHARS, WebhookHttpClient } from './webhook-http-client';

/** The sender against real local HTTP servers: deadlines, capped reads, redirects, connection reuse. */
describe('WebhookHttpClient', () => {
  const client = new WebhookHttpClient();
  const servers: Server[] = [];
  const serve = async (handler: Parameters<typeof createServer>[1]): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };
  /** A receiver that answers `status`, redirecting to a second one (at `location(target)`), and how often that one was reached. */
  const redirecting = async (status: number, location: (target: string) => string) => {
    const reached = { count: 0 };
    const target = await serve((req, res) => {
      reached.count++;
      req.resume();
      res.end();
    });
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(status, { location: location(target) }).end();
    });
    return { url, target, reached };
  };
  const post = (url: string, timeoutMs = 2000) =>
    client.post({ url, headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' }, body: '{"a":1}', timeoutMs, publicOnly: false });

  afterAll(async () => {
    client.onApplicationShutdown();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('sends the body with a content-length and reports status, headers and an excerpt', async () => {
    let seen: { method?: string; length?: string; body: string } = { body: '' };
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen = { method: req.method, length: req.headers['content-length'], body };
        res.writeHead(202, { 'x-answer': 'yes' }).end('accepted');
      });
    });
    const result = await post(url);
    expect(seen).toEqual({ method: 'POST', length: '7', body: '{"a":1}' });
    expect(result).toMatchObject({ statusCode: 202, error: null, responseExcerpt: 'accepted' });
    expect(result.headers['x-answer']).toBe('yes');
  });

  it('gives up at the deadline when no answer comes', async () => {
    const url = await serve(() => undefined);
    const started = Date.now();
    const result = await post(url, 300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^timed out after \d+ ms$/);
  });

  it('stops reading a huge or endless response and keeps a 1 KB excerpt', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(500);
      const chunk = 'y'.repeat(4096);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
    });
    const result = await post(url, 5000);
    expect(result.statusCode).toBe(500);
    expect(result.responseExcerpt).toHaveLength(RESPONSE_EXCERPT_CHARS);
    expect(result.durationMs).toBeLessThan(5000);
  });

  it('does not follow redirects', async () => {
    const { url, target, reached } = await redirecting(307, (to) => to);
    const result = await post(url);
    expect(result.statusCode).toBe(307);
    expect(result.headers.location).toBe(target);
    expect(reached.count).toBe(0);
  });

  it('reuses a kept-alive connection, and opens a new one after the receiver closed it', async () => {
    const sockets = new Set<unknown>();
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      res.end('ok');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    expect((await post(url)).statusCode).toBe(200);
    expect((await post(url)).statusCode).toBe(200);
    expect(sockets.size).toBe(1);
    // The receiver drops its idle connections; the next POST still succeeds.
    server.closeIdleConnections();
    expect((await post(url)).statusCode).toBe(200);
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i (here to a name for loopback)', async (status) => {
    const { url, reached } = await redirecting(status, (to) => to.replace('127.0.0.1', 'localhost'));
    const result = await post(url);
    expect(result).toMatchObject({ statusCode: status, error: null });
    expect(reached.count).toBe(0);
  });

  it('refuses, at connect time and without sending a byte, every spelling of a local address and names resolving to one', async () => {
    let reached = 0;
    const url = new URL(
      await serve((req, res) => {
        reached++;
        req.resume();
        res.end();
      }),
    );
    const port = url.port;
    // Every one of these reaches the local receiver when public-only is off (checked below for a sample).
    const literals = ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '017700000001', '0177.0.0.1', '0'];
    const names = ['localhost', 'LOCALHOST'];
    for (const host of [...literals, ...names]) {
      const result = await client.post({ url: `http://${host}:${port}/hook`, headers: {}, body: '{}', timeoutMs: 2000, publicOnly: true });
      expect({ host, statusCode: result.statusCode, error: result.error }).toEqual({
        host,
        statusCode: null,
        error: expect.stringMatching(literals.includes(host) ? /is not a public address/ : /resolves to a non-public address/),
      });
    }
    expect(reached).toBe(0);
    for (const host of ['2130706433', 'localhost']) {
      expect((await client.post({ url: `http://${host}:${port}/hook`, headers: {}, body: '{}', timeoutMs: 2000, publicOnly: false })).statusCode).toBe(200);
    }
    expect(reached).toBe(2);
  });

  it('refuses IPv6 loopback and mapped forms when public-only', async () => {
    for (const host of ['[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::]']) {
      const result = await client.post({ url: `http://${host}:9/hook`, headers: {}, body: '{}', timeoutMs: 1000, publicOnly: true });
      expect({ host, result }).toEqual({ host, result: expect.objectContaining({ statusCode: null, error: expect.stringMatching(/is not a public address/) }) });
    }
  });

  it('refuses a non-public literal address when public-only', async () => {
    const url = await serve((_req, res) => res.end());
    const result = await client.post({ url, headers: {}, body: '{}', timeoutMs: 1000, publicOnly: true });
    expect(result).toMatchObject({ statusCode: null, error: '127.0.0.1 is not a public address' });
  });
});
