import type { CreatedAccount } from '../accounts/accounts.service';
import { GatewayTestApp } from '../test/gateway-test-app';

const agent = { name: 'support', instruction: 'Answer questions about the bakery.', greeting: 'Hi!', skills: ['faq_responder'] };

/** agent-service is not running here: each of these must be answered by the gateway itself, without a call. */
describe('gateway: agent routes validate at the edge', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwagents');
    account = await gw.signUp();
  });

  afterAll(async () => {
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
});
