import { Topics, type MessageOutboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

describe('gateway: POST /v1/send publishes message.outbound (real Kafka)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let outbound: TopicProbe<MessageOutboundEvent>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwsend');
    outbound = await gw.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound);
    account = await gw.signUp();
  });

  afterAll(async () => {
    await outbound?.stop();
    await gw?.close();
  });

  it('answers sent once the exact envelope is on message.outbound, keyed by tenant and recipient', async () => {
    const answer = await gw.request('POST', '/v1/send', {
      token: account.api_key,
      headers: { 'x-request-id': 'req-send-text' },
      body: { channel: 'whatsapp', to: '+14155550123', message: 'Your order is ready.' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'sent', message_id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/) });
    expect(answer.headers.get('x-request-id')).toBe('req-send-text');

    const published = await pollUntil(() => outbound.find((m) => m.value.data.message_id === answer.body.message_id), { description: 'message.outbound' });
    expect(published.key).toBe(`${account.tenant_id}:+14155550123`);
    expect(published.headers['x-request-id']).toBe('req-send-text');
    expect(published.value).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'message.outbound',
      version: 3,
      tenant_id: account.tenant_id,
      occurred_at: expect.any(String),
      data: {
        message_id: answer.body.message_id,
        channel: 'whatsapp',
        from: null,
        to: '+14155550123',
        content: { type: 'text', text: 'Your order is ready.' },
        origin: 'api',
        accepted_at: expect.any(String),
      },
    });
    expect(Date.parse(published.value.data.accepted_at)).not.toBeNaN();
  });

  // Template sends are checked by messaging-service first (approved, parameters filled, opt-out): platform-e2e's
  // templates spec covers them end to end.
  it('sends with a token as the credential', async () => {
    const token = await gw.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret },
    });
    const answer = await gw.request('POST', '/v1/send', { token: token.body.access_token, body: { channel: 'whatsapp', to: '+447911123456', message: 'Order A-17 is ready.' } });
    expect(answer.body).toEqual({ status: 'sent', message_id: expect.any(String) });
    const published = await pollUntil(() => outbound.find((m) => m.value.data.message_id === answer.body.message_id), { description: 'message.outbound' });
    expect(published.value.data.content).toEqual({ type: 'text', text: 'Order A-17 is ready.' });
    expect(published.value.tenant_id).toBe(account.tenant_id);
  });

  it.each([
    ['missing fields', {}, ['channel', 'to', 'message', 'template']],
    ['wrong types', { channel: 'whatsapp', to: 14155550123, message: 5 }, ['to', 'message']],
    ['a number that is not E.164', { channel: 'whatsapp', to: '+123', message: 'hi' }, ['to']],
    ['an unknown channel', { channel: 'fax', to: '+14155550123', message: 'hi' }, ['channel']],
    ['both message and template', { channel: 'whatsapp', to: '+14155550123', message: 'hi', template: { name: 'x', language: { code: 'en' } } }, ['message', 'template']],
    ['an unknown field', { channel: 'whatsapp', to: '+14155550123', message: 'hi', priority: 'high' }, ['priority']],
    ['an empty message', { channel: 'whatsapp', to: '+14155550123', message: '' }, ['message']],
  ])('refuses %s with a 400 problem naming the fields', async (_label, body, fields) => {
    const answer = await gw.request('POST', '/v1/send', { token: account.api_key, body });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.type).toBe('https://parley.dev/problems/validation-error');
    expect([...new Set(answer.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual([...fields].sort());
  });

  it('lists the supported channels when the channel is unknown', async () => {
    const answer = await gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'telegram', to: '+14155550123', message: 'hi' } });
    expect(answer.body.errors).toEqual([{ field: 'channel', message: 'channel must be one of: whatsapp, sms, email' }]);
  });

  it('needs a credential', async () => {
    const answer = await gw.request('POST', '/v1/send', { body: { channel: 'whatsapp', to: '+14155550123', message: 'hi' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});
