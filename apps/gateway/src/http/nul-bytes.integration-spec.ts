import { GatewayTestApp, TEST_META_APP_SECRET, metaSignature, type CreatedAccount } from '../test/gateway-test-app';

/**
 * PostgreSQL text cannot hold U+0000: a NUL in a body string, a path parameter or a query value is bad input
 * (400 naming the field and the rule), never a 500 from the database. Cases found by the HTTP fuzzer.
 */
describe('gateway: NUL characters in requests', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwnul');
    account = await gw.signUp();
  });

  afterAll(async () => {
    await gw?.close();
  });

  const expectNulProblem = (answer: { status: number; headers: Headers; body: Record<string, unknown> }, field: string) => {
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      type: 'https://parley.dev/problems/validation-error',
      status: 400,
      errors: [{ field, message: `${field} must not contain NUL (U+0000) characters` }],
    });
    expect(answer.body.request_id).toBe(answer.headers.get('x-request-id'));
  };

  it('POST /oauth/token with a NUL in client_id → 400 invalid_request in the OAuth shape', async () => {
    const answer = await gw.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: '\u0000', client_secret: 'x' } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body).toEqual({ error: 'invalid_request', error_description: 'client_id must not contain NUL (U+0000) characters.' });
  });

  it('POST /oauth/token with a NUL in the HTTP Basic client id → 401 invalid_client, not a 500', async () => {
    const basic = Buffer.from('a\u0000b:secret').toString('base64');
    const answer = await gw.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'invalid_client' });
  });

  it('POST /api/v1/accounts with a NUL in name → 400', async () => {
    expectNulProblem(await gw.request('POST', '/api/v1/accounts', { body: { name: 'a\u0000b', email: 'owner@example.com' } }), 'name');
  });

  it('POST /api/v1/api-keys with a NUL in name → 400', async () => {
    expectNulProblem(await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'a\u0000b' } }), 'name');
  });

  it('a NUL in a nested body key → 400 naming the escaped key', async () => {
    const answer = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'k', 'x\u0000y': 1 } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toContainEqual({ field: 'x\\u0000y', message: 'x\\u0000y must not contain NUL (U+0000) characters' });
  });

  it('DELETE /api/v1/api-keys/a%00b → 400 naming the path parameter', async () => {
    expectNulProblem(await gw.request('DELETE', '/api/v1/api-keys/a%00b', { token: account.api_key }), 'id');
  });

  it.each(['/api/v1/conversations', '/api/v1/agents'])('GET %s?cursor=a%%00b → 400 naming the query parameter', async (path) => {
    expectNulProblem(await gw.request('GET', `${path}?cursor=a%00b`, { token: account.api_key }), 'cursor');
  });

  it('a signed provider notification whose text holds a NUL is still taken (the customer’s message is kept)', async () => {
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: 'pn_nul' }, messages: [{ id: 'wamid.NUL', from: '15550001111', type: 'text', text: { body: 'a\u0000b' } }] } }] }],
    });
    const answer = await gw.request('POST', '/webhooks/whatsapp', { rawBody: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET) } });
    expect(answer.status).toBe(200);
  });

  it('the same requests without the NUL still work', async () => {
    expect((await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'ab' } })).status).toBe(201);
    expect((await gw.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret } })).status).toBe(200);
  });
});
