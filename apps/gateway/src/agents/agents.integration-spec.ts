import { Headers, RPC_REPLY_TOPIC, RpcTopics, type DocumentRecord } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

const agent = { name: 'support', instruction: 'Answer questions about the bakery.', greeting: 'Hi!', skills: ['faq_responder'] };

/** agent-service is not running here: each of these must be answered by the gateway itself, without a call. */
describe('gateway: agent routes validate at the edge', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let agentCalls: TopicProbe<Record<string, unknown>>;
  let responderCalls: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwagents');
    account = await gw.signUp();
    [agentCalls, responderCalls] = await Promise.all([
      gw.kafka.probe<Record<string, unknown>>(RpcTopics.agents),
      gw.kafka.probe<Record<string, unknown>>(RpcTopics.responder),
    ]);
  });

  afterAll(async () => {
    await agentCalls?.stop();
    await responderCalls?.stop();
    await gw?.close();
  });

  it('refuses an unknown skill with 400 naming the allowed ones, before any call to agent-service', async () => {
    const started = Date.now();
    const answer = await gw.request('PUT', '/api/v1/agents/support', { token: account.api_key, body: { ...agent, skills: ['juggling'] } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'skills', message: expect.stringContaining('faq_responder, lead_capture, appointment_booking') }]);
    // An RPC to the absent agent-service would only end with its 5 s time-out.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a body name that differs from the path, naming `name`', async () => {
    const answer = await gw.request('PUT', '/api/v1/agents/support', { token: account.api_key, body: { ...agent, name: 'sales' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'name', message: expect.stringContaining('support') }]);
  });

  it('refuses an invalid agent name in the path', async () => {
    const answer = await gw.request('PUT', '/api/v1/agents/-bad!', { token: account.api_key, body: { ...agent, name: '-bad!' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain('agent_name');
  });

  it('answers 503 with Retry-After when agent-service does not reply', async () => {
    const answer = await gw.request('GET', '/api/v1/agents/support', { token: account.api_key });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body.type).toBe('https://parley.dev/problems/service-unavailable');
  });

  it('refuses a bad test body or version itself, naming the field, without a call', async () => {
    const started = Date.now();
    const empty = await gw.request('POST', '/api/v1/agents/support/test', { token: account.api_key, body: { message: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'message', message: expect.any(String) }]);
    const badFrom = await gw.request('POST', '/api/v1/agents/support/test', { token: account.api_key, body: { message: 'hi', from: 'me' } });
    expect(badFrom.body.errors).toEqual([{ field: 'from', message: expect.stringContaining('E.164') }]);
    expect((await gw.request('GET', '/api/v1/agents/support/versions/0', { token: account.api_key })).status).toBe(404);
    expect((await gw.request('GET', '/api/v1/agents/support/versions/latest', { token: account.api_key })).status).toBe(404);
    expect((await gw.request('GET', '/api/v1/agents/support/versions?limit=500', { token: account.api_key })).body.errors).toEqual([
      { field: 'limit', message: expect.any(String) },
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('forwards versions to agent-service and the test message to responder-service (replies.preview), with the caller tenant', async () => {
    const answers = await Promise.all([
      gw.request('GET', '/api/v1/agents/support/versions?limit=5', { token: account.api_key }),
      gw.request('GET', '/api/v1/agents/support/versions/3', { token: account.api_key }),
      gw.request('POST', '/api/v1/agents/support/test', { token: account.api_key, body: { message: 'do you deliver?', from: '+14155550100' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
    const tenant_id = account.tenant_id;
    await pollUntil(() => agentCalls.messages.length >= 2 && responderCalls.messages.length >= 1, { description: 'the three requests' });
    const byPattern = Object.fromEntries([...agentCalls.messages, ...responderCalls.messages].map((m) => [m.headers[Headers.RpcPattern], m.value]));
    expect(byPattern).toMatchObject({
      'agents.versions': { tenant_id, name: 'support', limit: 5, cursor: null },
      'agents.version': { tenant_id, name: 'support', version: 3 },
      'replies.preview': { tenant_id, agent: 'support', message: 'do you deliver?', from: '+14155550100' },
    });
  });

  describe('document uploads (multipart/form-data, CONTRACT.md §11)', () => {
    /** A multipart body as a browser would send it. */
    async function form(fields: Record<string, string | Blob>): Promise<{ rawBody: Buffer; headers: Record<string, string> }> {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value, ...(value instanceof Blob ? ['prices.md'] : []));
      const encoded = new Request('http://form.local', { method: 'POST', body: data });
      return { rawBody: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
    }
    const upload = async (fields: Record<string, string | Blob>) => gw.request('POST', '/api/v1/agents/support/documents', { token: account.api_key, ...(await form(fields)) });
    const uploadCalls = () => agentCalls.messages.filter((m) => m.headers[Headers.RpcPattern] === 'documents.create');

    it('forwards an uploaded file to agent-service whole, with its type and title, and answers its 202', async () => {
      const markdown = '# Prices\n\nWhitening costs $300.';
      // Plays agent-service: answers the call the gateway makes.
      const answering = pollUntil(() => uploadCalls()[0], { description: 'the upload call' }).then(async (call) => {
        const record: DocumentRecord = { id: 'doc_01JD8YY6P1B2C3D4E5F6G7H8J9', title: 'Price list', source: 'file', url: null, status: 'processing', chunks: null, error: null, refresh: 'off', last_refresh: null, next_refresh_at: null, created_at: '2026-11-25T10:00:00.000Z', updated_at: '2026-11-25T10:00:00.000Z' };
        await gw.kafka.publisher.publish([{ topic: RPC_REPLY_TOPIC, key: call.headers[Headers.CorrelationId], value: { ok: true, data: record }, headers: { [Headers.CorrelationId]: call.headers[Headers.CorrelationId] } }]);
        return call;
      });
      const answer = await upload({ title: 'Price list', file: new Blob([markdown], { type: 'text/markdown' }) });
      const call = await answering;
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ id: 'doc_01JD8YY6P1B2C3D4E5F6G7H8J9', source: 'file', status: 'processing', chunks: null, error: null });
      expect(call.value).toMatchObject({
        tenant_id: account.tenant_id,
        agent: 'support',
        upload: { kind: 'file', title: 'Price list', filename: 'prices.md', content_type: 'text/markdown', data_base64: Buffer.from(markdown).toString('base64') },
      });
    });

    it('refuses a file type it does not read (400 naming file), a missing file, and more than 10 MiB (413), without a call', async () => {
      const calls = uploadCalls().length;
      const image = await upload({ file: new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }) });
      expect(image.status).toBe(400);
      expect(image.headers.get('content-type')).toContain('application/problem+json');
      expect(image.body.errors).toEqual([{ field: 'file', message: expect.stringContaining('text/plain, text/markdown, text/html, application/pdf') }]);
      const none = await upload({ title: 'Nothing attached' });
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual([{ field: 'file', message: expect.stringContaining('required') }]);
      const huge = await upload({ file: new Blob([Buffer.alloc(10 * 1024 * 1024 + 1, 'a')], { type: 'text/plain' }) });
      expect(huge.status).toBe(413);
      expect(huge.body.type).toBe('https://parley.dev/problems/payload-too-large');
      const wrongMedia = await gw.request('POST', '/api/v1/agents/support/documents', { token: account.api_key, rawBody: 'plain words', headers: { 'content-type': 'text/plain' } });
      expect(wrongMedia.status).toBe(415);
      const badJson = await gw.request('POST', '/api/v1/agents/support/documents', { token: account.api_key, body: { title: 'x', text: 'y', colour: 'red' } });
      expect(badJson.body.errors).toEqual([{ field: 'colour', message: expect.any(String) }]);
      expect((await gw.request('GET', '/api/v1/agents/support/documents/not-a-document', { token: account.api_key })).status).toBe(404);
      expect(uploadCalls().length).toBe(calls);
    });
  });
});
