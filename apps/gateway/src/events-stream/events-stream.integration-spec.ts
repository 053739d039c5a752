import { Topics, type EventEnvelope } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';
import { EventsStreamService, MAX_STREAMS_PER_TENANT } from './events-stream.service';

interface StreamedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** A client of the stream, reading frames as they come (the way the dashboard does, with fetch). */
class StreamClient {
  readonly events: StreamedEvent[] = [];
  retry?: number;
  comments = 0;
  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(baseUrl: string, token: string): Promise<StreamClient> {
    const abort = new AbortController();
    const response = await fetch(`${baseUrl}/api/v1/events/stream`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    const client = new StreamClient(response, abort);
    if (response.ok) void client.read();
    return client;
  }

  close(): void {
    this.abort.abort();
  }

  private async read(): Promise<void> {
    const reader = this.response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted by the test
    }
  }

  private take(block: string): void {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments++;
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
    }
    if (fields.has('retry')) this.retry = Number(fields.get('retry'));
    if (fields.has('data')) this.events.push({ id: fields.get('id')!, event: fields.get('event')!, data: JSON.parse(fields.get('data')!) as Record<string, unknown> });
  }
}

const status = (tenantId: string, messageId: string, value: string): EventEnvelope =>
  EventPublisher.envelope(Topics.MessageStatus, tenantId, {
    event: 'message.status',
    channel: 'whatsapp',
    tenant_id: tenantId,
    message_id: messageId,
    status: value,
    to: '+14155550123',
    at: new Date().toISOString(),
  });

const received = (tenantId: string, text: string): EventEnvelope =>
  EventPublisher.envelope(Topics.MessageReceived, tenantId, {
    event: 'message.received',
    channel: 'whatsapp',
    from: '+14155550999',
    message: text,
    tenant_id: tenantId,
    agent_response: null,
    message_id: 'msg_01INBOUND000000000000000000',
    reply_message_id: null,
    agent: null,
    type: 'text',
    received_at: new Date().toISOString(),
  });

/** CONTRACT.md §8: the dashboard's live updates, one server-sent-events stream per client, on the real broker. */
describe('gateway: GET /api/v1/events/stream (real Kafka, Redis and PostgreSQL)', () => {
  let gw: GatewayTestApp;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  let service: EventsStreamService;
  const clients: StreamClient[] = [];

  const open = async (account: CreatedAccount) => {
    const client = await StreamClient.open(gw.baseUrl, account.api_key);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwevents');
    alice = await gw.signUp('Alice Bakery');
    bob = await gw.signUp('Bob Garage');
    service = gw.app.get(EventsStreamService);
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await gw?.close();
  });

  it('answers 401 problem+json without a credential, and opens no stream', async () => {
    const answer = await gw.request('GET', '/api/v1/events/stream');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 401, type: 'https://parley.dev/problems/unauthorized' });
    expect(service.openStreams()).toBe(0);
  });

  it("streams each tenant its own events only, in order, as id/event/data frames, counted as one request", async () => {
    const before = (await gw.request('GET', '/api/v1/usage', { token: alice.api_key })).body as { used_today: number };
    const aliceStream = await open(alice);
    const bobStream = await open(bob);
    expect(aliceStream.response.status).toBe(200);
    expect(aliceStream.response.headers.get('content-type')).toContain('text/event-stream');
    expect(aliceStream.response.headers.get('ratelimit')).toMatch(/^"daily";r=\d+;t=\d+$/);
    await pollUntil(() => service.openStreams(alice.tenant_id) === 1 && service.openStreams(bob.tenant_id) === 1, { description: 'both streams registered' });
    await pollUntil(() => aliceStream.retry === 3000, { description: 'the retry hint' });

    const aliceEvents = ['sent', 'delivered', 'read'].map((s) => status(alice.tenant_id, 'msg_01ALICE00000000000000000000', s));
    const bobEvents = [received(bob.tenant_id, 'hello from bob'), ...['sent', 'failed'].map((s) => status(bob.tenant_id, 'msg_01BOB0000000000000000000000', s))];
    // Interleaved, one key per conversation (one partition each), as the services publish them.
    for (let i = 0; i < 3; i++) {
      if (aliceEvents[i]) await gw.kafka.publisher.publishEvent(aliceEvents[i], `${alice.tenant_id}:+14155550123`);
      if (bobEvents[i]) await gw.kafka.publisher.publishEvent(bobEvents[i], `${bob.tenant_id}:${i === 0 ? '+14155550999' : '+14155550123'}`);
    }

    await pollUntil(() => aliceStream.events.length >= 3 && bobStream.events.filter((e) => e.event === 'message.status').length >= 2, {
      description: 'both tenants’ events streamed',
    });
    expect(aliceStream.events).toEqual(aliceEvents.map((e) => ({ id: e.id, event: 'message.status', data: e.data })));
    expect(bobStream.events.filter((e) => e.event === 'message.status').map((e) => e.data.status)).toEqual(['sent', 'failed']);
    expect(bobStream.events).toEqual(expect.arrayContaining(bobEvents.map((e) => ({ id: e.id, event: e.type, data: e.data }))));
    expect(bobStream.events).toHaveLength(3);
    expect(JSON.stringify(bobStream.events)).not.toContain(alice.tenant_id);
    expect(JSON.stringify(aliceStream.events)).not.toContain(bob.tenant_id);

    // The open stream was one request: the next one is the second since `before`.
    const after = (await gw.request('GET', '/api/v1/usage', { token: alice.api_key })).body as { used_today: number };
    expect(after.used_today).toBe(before.used_today + 2);
  });

  it('streams the inbox’s conversation.updated (CONTRACT.md §12) to the tenant’s dashboards', async () => {
    const stream = await open(alice);
    await pollUntil(() => stream.retry === 3000, { description: 'the stream open' });
    const conversation = {
      id: 'cnv_01JD8Z8C0A1B2C3D4E5F6G7H8J',
      channel: 'whatsapp' as const,
      channel_id: 'chn_01JD8Z7B9Z0A1B2C3D4E5F6G7H',
      customer: '+14155550123',
      contact_name: 'Maria Lopez',
      state: 'handed_off' as const,
      assignee: null,
      unread: 2,
      last_message: { text: 'hello?', author: { type: 'customer' as const }, at: '2026-11-20T10:41:00.000Z' },
      window_expires_at: '2026-11-21T10:41:00.000Z',
      started_at: '2026-11-20T10:30:00.000Z',
      last_message_at: '2026-11-20T10:41:00.000Z',
    };
    const update = EventPublisher.envelope(Topics.ConversationUpdated, alice.tenant_id, {
      event: 'conversation.updated' as const,
      tenant_id: alice.tenant_id,
      change: 'message' as const,
      conversation,
      at: '2026-11-20T10:41:00.000Z',
    });
    await gw.kafka.publisher.publishEvent(update, `${alice.tenant_id}:+14155550123`);
    await pollUntil(() => stream.events.find((e) => e.id === update.id), { description: 'conversation.updated on the stream' });
    expect(stream.events.find((e) => e.id === update.id)).toEqual({ id: update.id, event: 'conversation.updated', data: update.data });
    stream.close();
  });

  it('streams template.status (CONTRACT.md §13), so the Templates page shows a review’s end live', async () => {
    const stream = await open(alice);
    await pollUntil(() => stream.retry === 3000, { description: 'the stream open' });
    const template = {
      id: 'tpl_01JD8Z8C0A1B2C3D4E5F6G7H8K',
      channel_id: 'chn_01JD8Z7B9Z0A1B2C3D4E5F6G7H',
      name: 'reject_this_offer',
      language: 'en_US',
      category: 'MARKETING' as const,
      components: [{ type: 'BODY', text: 'Everything half price today only!' }],
      status: 'REJECTED' as const,
      reason: 'INVALID_FORMAT',
      created_at: '2026-11-20T10:40:00.000Z',
      updated_at: '2026-11-20T10:41:00.000Z',
    };
    const reviewed = EventPublisher.envelope(Topics.TemplateStatus, alice.tenant_id, {
      event: 'template.status' as const,
      tenant_id: alice.tenant_id,
      channel: 'whatsapp' as const,
      template,
      at: '2026-11-20T10:41:00.000Z',
    });
    await gw.kafka.publisher.publishEvent(reviewed, `${alice.tenant_id}:${template.id}`);
    await pollUntil(() => stream.events.find((e) => e.id === reviewed.id), { description: 'template.status on the stream' });
    expect(stream.events.find((e) => e.id === reviewed.id)).toEqual({ id: reviewed.id, event: 'template.status', data: reviewed.data });
    stream.close();
  });

  it('frees a stream when its client disconnects, and caps the streams of one tenant', async () => {
    await pollUntil(() => service.openStreams(bob.tenant_id) === 1, { description: 'bob’s earlier stream' });
    const extra = await Promise.all(Array.from({ length: MAX_STREAMS_PER_TENANT - 1 }, () => open(bob)));
    expect(extra.map((c) => c.response.status)).toEqual(extra.map(() => 200));
    await pollUntil(() => service.openStreams(bob.tenant_id) === MAX_STREAMS_PER_TENANT, { description: 'bob at the cap' });

    const refused = await gw.request('GET', '/api/v1/events/stream', { token: bob.api_key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await open(alice)).response.status).toBe(200); // the cap is per tenant

    for (const client of clients.filter((c) => extra.includes(c))) client.close();
    await pollUntil(() => service.openStreams(bob.tenant_id) === 1, { description: 'closed streams released' });
    const again = await open(bob);
    expect(again.response.status).toBe(200);
  });
});
