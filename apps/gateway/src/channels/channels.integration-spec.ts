import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * messaging-service is not running here: every answer below comes from the gateway itself. The full path (gateway →
 * messaging-service → provider) is covered by messaging-service's channel integration tests and the platform e2e.
 */
describe('gateway: channel routes and 360dialog intake validate at the edge', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwchannels');
    account = await gw.signUp();
  });

  afterAll(async () => {
    await gw?.close();
  });

  const fields = (body: { errors?: { field: string }[] }) => [...new Set((body.errors ?? []).map((e) => e.field))].sort();

  it('refuses an unknown provider and a meta number without its id and token, naming the fields, without a call', async () => {
    const started = Date.now();
    const unknown = await gw.request('POST', '/api/v1/channels/whatsapp', { token: account.api_key, body: { provider: 'telegram', phone_number: '+14155550123' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toContainEqual({ field: 'provider', message: expect.stringContaining('meta, 360dialog, sandbox') });

    const meta = await gw.request('POST', '/api/v1/channels/whatsapp', { token: account.api_key, body: { provider: 'meta', phone_number: '+14155550123' } });
    expect(meta.status).toBe(400);
    expect(fields(meta.body)).toEqual(['access_token', 'phone_number_id']);

    const dialog = await gw.request('POST', '/api/v1/channels/whatsapp', { token: account.api_key, body: { provider: '360dialog', phone_number: 'not-a-number' } });
    expect(dialog.status).toBe(400);
    expect(fields(dialog.body)).toEqual(['access_token', 'phone_number']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an embedded signup without code or with non-numeric Graph ids', async () => {
    const answer = await gw.request('POST', '/api/v1/channels/whatsapp/embedded-signup', { token: account.api_key, body: { waba_id: 'abc', phone_number_id: '12' } });
    expect(answer.status).toBe(400);
    expect(fields(answer.body)).toEqual(['code', 'waba_id']);
  });

  it('refuses is_default: false and a bad agent name on PATCH; a malformed id is simply not found', async () => {
    const patch = await gw.request('PATCH', '/api/v1/channels/chn_01JZZZZZZZZZZZZZZZZZZZZZZZ', { token: account.api_key, body: { is_default: false, agent: '-bad!' } });
    expect(patch.status).toBe(400);
    expect(fields(patch.body)).toEqual(['agent', 'is_default']);
    expect((await gw.request('DELETE', '/api/v1/channels/whk_nope', { token: account.api_key })).status).toBe(404);
    expect((await gw.request('POST', '/api/v1/channels/whatsapp', { body: { provider: 'sandbox' } })).status).toBe(401);
  });

  it('answers 401 to a 360dialog notification without X-Channel-Token, and 503 when the token cannot be checked now', async () => {
    const body = { rawBody: '{"object":"whatsapp_business_account","entry":[]}', headers: { 'content-type': 'application/json' } };
    const missing = await gw.request('POST', '/webhooks/360dialog/chn_01JZZZZZZZZZZZZZZZZZZZZZZZ', body);
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toContain('X-Channel-Token');

    const unverifiable = await gw.request('POST', '/webhooks/360dialog/chn_01JZZZZZZZZZZZZZZZZZZZZZZZ', { ...body, headers: { ...body.headers, 'x-channel-token': 'cht_whatever' } });
    expect(unverifiable.status).toBe(503);
    expect(unverifiable.headers.get('retry-after')).toBe('5');
  });
});
