import { Headers, RPC_REPLY_TOPIC, RpcTopics, newId, type ConversationRecord, type MessageStatusRecord } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * responder-service is not running here (its behaviour is tested in its own project): these show what the gateway
 * answers itself, and that valid requests reach responder-service's request topic as the right pattern and payload.
 */
describe('gateway: conversations, leads and appointments routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;
  let messaging: TopicProbe<Record<string, unknown>>;
  const conversationId = newId('cnv');

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwengage');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.responder);
    messaging = await gw.kafka.probe(RpcTopics.messaging);
  });

  afterAll(async () => {
    await requests?.stop();
    await messaging?.stop();
    await gw?.close();
  });

  const call = (method: string, path: string, body?: unknown) => gw.request(method, `/api/v1${path}`, { token: account.api_key, body });

  it('refuses bad list queries and impossible ids itself, without a call', async () => {
    const started = Date.now();
    for (const path of ['/conversations?limit=0', '/leads?limit=abc', '/appointments?limit=101']) {
      const answer = await call('GET', path);
      expect({ path, status: answer.status, fields: [...new Set(answer.body.errors.map((e: { field: string }) => e.field))] }).toEqual({ path, status: 400, fields: ['limit'] });
    }
    for (const [method, path, body] of [
      ['GET', '/conversations/nope'],
      ['GET', `/conversations/${newId('led')}`],
      ['POST', '/conversations/nope/release'],
      ['PATCH', '/conversations/nope', { state: 'closed' }],
      ['POST', `/conversations/${newId('led')}/messages`, { message: 'hi' }],
      ['POST', '/conversations/nope/notes', { text: 'hi' }],
    ] as [string, string, unknown?][]) {
      const answer = await call(method, path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    // The inbox's filters and bodies (CONTRACT.md §12).
    for (const [method, path, body, field] of [
      ['GET', '/conversations?state=open', undefined, 'state'],
      ['GET', '/conversations?assignee=bob', undefined, 'assignee'],
      ['GET', '/conversations?assignee=me', undefined, 'assignee'], // an API key is no team member
      ['GET', '/conversations?channel=fax', undefined, 'channel'],
      ['GET', '/conversations?source=test', undefined, 'source'],
      ['GET', `/conversations?q=${'x'.repeat(201)}`, undefined, 'q'],
      ['PATCH', `/conversations/${conversationId}`, {}, 'state'],
      ['PATCH', `/conversations/${conversationId}`, { state: 'archived' }, 'state'],
      ['PATCH', `/conversations/${conversationId}`, { assignee: 'key_01JD8Z9D1B2C3D4E5F6G7H8J9K' }, 'assignee'],
      ['PATCH', `/conversations/${conversationId}`, { state: 'closed', mood: 'calm' }, 'mood'],
      // A well-formed id that is no member of this team (the gateway owns the team).
      ['PATCH', `/conversations/${conversationId}`, { assignee: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K' }, 'assignee'],
      ['POST', `/conversations/${conversationId}/messages`, { message: '' }, 'message'],
      ['POST', `/conversations/${conversationId}/messages`, {}, 'message'],
      ['POST', `/conversations/${conversationId}/notes`, { text: 'x'.repeat(4097) }, 'text'],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ path, body, status: answer.status, fields: [...new Set(answer.body.errors?.map((e: { field: string }) => e.field))] }).toEqual({ path, body, status: 400, fields: [field] });
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(requests.messages).toEqual([]);
  });

  it('needs a credential', async () => {
    expect((await gw.request('GET', '/api/v1/leads')).status).toBe(401);
  });

  it('forwards each route to responder-service as its pattern with the caller tenant, and answers 503 when nobody replies', async () => {
    const member = await call('POST', '/team', { email: `tom-${Date.now()}@example.com`, name: 'Tom', role: 'agent' });
    expect(member.status).toBe(201);
    const assignee = member.body.id as string;
    const answers = await Promise.all([
      call('GET', '/conversations?limit=10&state=handed_off&assignee=none&channel=whatsapp&q=Maria&source=customer'),
      call('GET', `/conversations/${conversationId}`),
      call('POST', `/conversations/${conversationId}/release`),
      call('PATCH', `/conversations/${conversationId}`, { state: 'handed_off', assignee }),
      call('POST', `/conversations/${conversationId}/messages`, { message: 'Hi, Tom here.' }),
      call('POST', `/conversations/${conversationId}/notes`, { text: 'VIP' }),
      call('GET', '/leads?cursor=led_X'),
      call('GET', '/appointments'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503, 503, 503]);
    await pollUntil(() => requests.messages.length >= 8, { description: 'eight requests on the responder-service topic' });
    const byPattern = Object.fromEntries(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = account.tenant_id;
    expect(byPattern).toEqual({
      'conversations.list': { tenant_id, limit: 10, cursor: null, state: 'handed_off', assignee: 'none', channel: 'whatsapp', q: 'Maria', source: 'customer', team_id: null, label: null, mentioned: null },
      // With an API key no member reads it (only a member's opening marks it read) or acts (`api`).
      'conversations.get': { tenant_id, id: conversationId, reader: null },
      'conversations.release': { tenant_id, id: conversationId },
      'conversations.update': { tenant_id, id: conversationId, change: { state: 'handed_off', assignee }, actor: { type: 'api' } },
      'conversations.reply': { tenant_id, id: conversationId, message: 'Hi, Tom here.', actor: { type: 'api' } },
      'conversations.note': { tenant_id, id: conversationId, text: 'VIP', actor: { type: 'api' } },
      'leads.list': { tenant_id, limit: 50, cursor: 'led_X' },
      'appointments.list': { tenant_id, limit: 50, cursor: null },
    });
  });

  describe('the thread’s ticks (issue 32)', () => {
    /** Plays the service a call went to: answers the first call of `pattern` that `matches` with `data`. */
    async function answer(probe: TopicProbe<Record<string, unknown>>, pattern: string, matches: (value: Record<string, unknown>) => boolean, data: unknown) {
      const call = await pollUntil(() => probe.messages.find((m) => m.headers[Headers.RpcPattern] === pattern && matches(m.value)), { description: `a ${pattern} call` });
      const correlation = call.headers[Headers.CorrelationId];
      await gw.kafka.publisher.publish([{ topic: RPC_REPLY_TOPIC, key: correlation, value: { ok: true, data }, headers: { [Headers.CorrelationId]: correlation } }]);
      return call;
    }

    const [customerMessage, agentReply, memberReply] = [newId('msg'), newId('msg'), newId('msg')];
    const thread = (id: string): ConversationRecord => ({
      id,
      channel: 'whatsapp',
      channel_id: 'chn_01JCHANNEL0000000000000000',
      customer: '+14155550123',
      contact_name: 'Kari',
      state: 'handed_off',
      assignee: null,
      unread: 0,
      last_message: { text: 'We are on it.', author: { type: 'member', id: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K' }, at: '2026-11-25T10:00:02.000Z' },
      last_customer_message: { text: 'My battery died', author: { type: 'customer' }, at: '2026-11-25T10:00:00.000Z' },
      source: 'customer',
      team_id: null,
      labels: [],
      sla: null,
      rating: null,
      window_expires_at: '2026-11-26T10:00:00.000Z',
      started_at: '2026-11-25T10:00:00.000Z',
      last_message_at: '2026-11-25T10:00:00.000Z',
      messages: [
        { message_id: customerMessage, role: 'customer', author: { type: 'customer' }, text: 'My battery died', at: '2026-11-25T10:00:00.000Z' },
        { message_id: agentReply, role: 'agent', author: { type: 'agent', name: 'support' }, text: 'Sorry to hear that!', at: '2026-11-25T10:00:01.000Z' },
        { message_id: memberReply, role: 'member', author: { type: 'member', id: 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K' }, text: 'We are on it.', at: '2026-11-25T10:00:02.000Z' },
      ],
      notes: [],
    });

    it('gives each message to the customer its status from messaging-service, a failure with its reason', async () => {
      const id = newId('cnv');
      const opened = call('GET', `/conversations/${id}`);
      await answer(requests, 'conversations.get', (v) => v.id === id, thread(id));
      const statuses: MessageStatusRecord[] = [
        { message_id: agentReply, status: 'read' },
        { message_id: memberReply, status: 'failed', error: { code: '131047', title: 'Re-engagement message' } },
      ];
      const asked = await answer(messaging, 'messages.statuses', (v) => (v.message_ids as string[]).includes(agentReply), { data: statuses });
      // Only ours are asked about, for the caller's tenant.
      expect(asked.value).toEqual({ tenant_id: account.tenant_id, message_ids: [agentReply, memberReply] });
      const answered = await opened;
      expect(answered.status).toBe(200);
      expect(answered.body.messages).toEqual([
        { message_id: customerMessage, role: 'customer', author: { type: 'customer' }, text: 'My battery died', at: '2026-11-25T10:00:00.000Z' },
        expect.objectContaining({ message_id: agentReply, status: 'read' }),
        expect.objectContaining({ message_id: memberReply, status: 'failed', error: { code: '131047', title: 'Re-engagement message' } }),
      ]);
      expect(answered.body.last_customer_message).toEqual({ text: 'My battery died', author: { type: 'customer' }, at: '2026-11-25T10:00:00.000Z' });
    });

    it('shows the thread without its ticks (status null) when messaging-service does not answer in time', async () => {
      const id = newId('cnv');
      const opened = call('GET', `/conversations/${id}`);
      await answer(requests, 'conversations.get', (v) => v.id === id, thread(id));
      await pollUntil(() => messaging.messages.filter((m) => m.headers[Headers.RpcPattern] === 'messages.statuses').length >= 2, { description: 'the second statuses call' });
      const answered = await opened;
      expect(answered.status).toBe(200);
      expect(answered.body.messages.map((m: { status?: string | null }) => m.status)).toEqual([undefined, null, null]);
    });
  });
});
