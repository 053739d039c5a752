import { pollUntil } from '@parley/testing';
import { get, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseConnection } from './sse-connection';

/** A client that stops reading must cost bounded memory: over real sockets, since the kernel's buffers take part. */
describe('SseConnection back-pressure (real sockets)', () => {
  let server: Server;
  let connection: SseConnection | undefined;
  let closedBy: SseConnection | undefined;
  let client: IncomingMessage | undefined;
  const maxBufferedBytes = 64 * 1024;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      connection = new SseConnection('ten_test', response, { keepAliveMs: 60_000, retryMs: 1000, maxBufferedBytes }, (c) => (closedBy = c));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    client?.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('disconnects a client that stops reading once its unread backlog passes the limit, and reports the close once', async () => {
    const { port } = server.address() as AddressInfo;
    client = await new Promise<IncomingMessage>((resolve) => get(`http://127.0.0.1:${port}/`, resolve));
    client.pause(); // a stalled browser tab
    await pollUntil(() => connection, { description: 'the stream' });

    const frame = `data: ${'x'.repeat(16 * 1024)}\n\n`;
    let sent = 0;
    // The kernel's socket buffers fill first; then Node buffers, and the connection must give up.
    await pollUntil(
      () => {
        for (let i = 0; i < 64 && connection!.isOpen; i++, sent++) connection!.send(frame);
        return !connection!.isOpen;
      },
      { description: 'the slow client cut off', timeoutMs: 20_000 },
    );
    await pollUntil(() => closedBy === connection, { description: 'the close reported' });
    expect(sent * frame.length).toBeGreaterThan(maxBufferedBytes);
    // Sending to a closed stream is a no-op, not a growing buffer.
    connection!.send(frame);
    expect(connection!.isOpen).toBe(false);
  });
});
