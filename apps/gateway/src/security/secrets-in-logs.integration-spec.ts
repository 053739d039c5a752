import { randomBytes } from 'node:crypto';
import { metaSignature } from '../provider-intake/meta-signature';
import { GatewayTestApp, TEST_JWT_SECRET, TEST_META_APP_SECRET, TEST_META_VERIFY_TOKEN, type CreatedAccount } from '../test/gateway-test-app';

const ADMIN_TOKEN = `adm_${randomBytes(24).toString('base64url')}`;

/** Everything the process writes to stdout and stderr (pino writes through a patched stdout, see pino's tools.js). */
class OutputCapture {
  readonly lines: string[] = [];
  private readonly originals = { out: process.stdout.write, err: process.stderr.write };

  start(): void {
    const capture = (chunk: unknown) => {
      this.lines.push(...String(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk).split('\n').filter(Boolean));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
  }

  stop(): void {
    process.stdout.write = this.originals.out;
    process.stderr.write = this.originals.err;
  }
}

interface Exchange {
  label: string;
  status: number;
  text: string;
}

/**
 * Issue 9, attacker's pass: secrets never appear in logs, errors or error answers. The gateway runs at debug level
 * with every line it writes captured, while its credentials are used correctly and wrongly (wrong secrets that
 * contain the real one, secrets in query strings, paths, unknown fields and broken JSON, provider credentials).
 */
describe('gateway security: secrets never in logs or error answers (real PostgreSQL, Kafka and Redis)', () => {
  const output = new OutputCapture();
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  const secrets: Record<string, string> = {};
  const exchanges: Exchange[] = [];

  const call = async (label: string, method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string } = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${gw.baseUrl}${path}`, { method, headers, body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) });
    const exchange = { label, status: response.status, text: await response.text() };
    exchanges.push(exchange);
    return exchange;
  };

  beforeAll(async () => {
    output.start();
    gw = await GatewayTestApp.start('gwsecretlogs', { LOG_LEVEL: 'debug', ADMIN_TOKEN });
    account = await gw.signUp('Secretive');
    const token = await gw.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret } });
    const spare = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'spare' } });
    Object.assign(secrets, {
      api_key: account.api_key,
      client_secret: account.client_secret,
      access_token: token.body.access_token,
      spare_api_key: spare.body.api_key,
      jwt_secret: TEST_JWT_SECRET,
      admin_token: ADMIN_TOKEN,
      meta_app_secret: TEST_META_APP_SECRET,
      meta_verify_token: TEST_META_VERIFY_TOKEN,
      whatsapp_access_token: `EAAG${randomBytes(30).toString('base64url')}`,
      dialog_api_key: `d360_${randomBytes(24).toString('base64url')}`,
      dialog_inbound_token: `inb_${randomBytes(24).toString('base64url')}`,
      webhook_secret: `whsec_${randomBytes(24).toString('base64')}`,
    });
    const spareId: string = spare.body.id;
    const s = secrets;
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const notification = '{"object":"whatsapp_business_account","entry":[]}';

    await Promise.all([
      // Correct use.
      call('token, form body', 'POST', '/oauth/token', { rawBody: `grant_type=client_credentials&client_id=${account.client_id}&client_secret=${s.client_secret}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      call('token, Basic', 'POST', '/oauth/token', { rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(account.client_id, s.client_secret) } }),
      call('keys with the API key', 'GET', '/api/v1/api-keys', { token: s.api_key }),
      call('keys with the access token', 'GET', '/api/v1/api-keys', { headers: { authorization: `bearer ${s.access_token}` } }),
      call('admin', 'PATCH', `/admin/v1/tenants/${account.tenant_id}`, { token: ADMIN_TOKEN, body: { plan: 'pro' } }),
      call('meta verify', 'GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${s.meta_verify_token}&hub.challenge=7`),
      call('meta notify', 'POST', '/webhooks/whatsapp', { rawBody: notification, headers: { 'x-hub-signature-256': metaSignature(notification, TEST_META_APP_SECRET) } }),
      // Wrong use that echoes the secret back at the server.
      call('token, wrong secret containing the real one', 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: `${s.client_secret}x` } }),
      call('token, unknown client with the real secret', 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: s.client_secret } }),
      call('token, wrong grant with the secret', 'POST', '/oauth/token', { body: { grant_type: s.client_secret, client_id: account.client_id, client_secret: s.client_secret } }),
      call('token, Basic with a wrong secret', 'POST', '/oauth/token', { rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(account.client_id, `${s.client_secret}x`) } }),
      call('token, broken JSON around the secret', 'POST', '/oauth/token', { rawBody: `{"client_secret": ${s.client_secret}}` }),
      call('API key with a trailing character', 'GET', '/api/v1/api-keys', { token: `${s.api_key}x` }),
      call('API key as Basic', 'GET', '/api/v1/api-keys', { headers: { authorization: basic(account.client_id, s.api_key) } }),
      call('API key in the query', 'GET', `/api/v1/api-keys?api_key=${s.api_key}&access_token=${s.access_token}`),
      call('API key in the path', 'DELETE', `/api/v1/api-keys/${s.api_key}`, { token: s.api_key }),
      call('access token in a message id', 'GET', `/api/v1/messages/${s.access_token}`, { token: s.api_key }),
      call('API key in an unknown field', 'POST', '/api/v1/api-keys', { token: s.api_key, body: { name: 'x', api_key: s.spare_api_key, secret: s.webhook_secret } }),
      call('API key as a too-long name', 'POST', '/api/v1/api-keys', { token: s.api_key, body: { name: `${s.spare_api_key}`.repeat(20) } }),
      call('broken JSON around the API key', 'POST', '/api/v1/api-keys', { token: s.api_key, rawBody: `{"name": ${s.spare_api_key}` }),
      call('sign-up with a secret in an unknown field', 'POST', '/api/v1/accounts', { body: { name: 'x', client_secret: s.client_secret, password: s.jwt_secret } }),
      call('admin with a wrong token containing the real one', 'PATCH', `/admin/v1/tenants/${account.tenant_id}`, { token: `${ADMIN_TOKEN}x`, body: { plan: 'pro' } }),
      call('admin token on a tenant route', 'GET', '/api/v1/api-keys', { token: ADMIN_TOKEN }),
      call('meta verify with a wrong token containing the real one', 'GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${s.meta_verify_token}x&hub.challenge=7`),
      call('meta notify with the app secret as signature', 'POST', '/webhooks/whatsapp', { rawBody: notification, headers: { 'x-hub-signature-256': `sha256=${s.meta_app_secret}` } }),
      // Provider credentials on their way to messaging-service (absent here: the gateway answers 503 after its call).
      call('meta channel with its access token', 'POST', '/api/v1/channels/whatsapp', {
        token: s.api_key,
        body: { provider: 'meta', phone_number: '+14155550100', phone_number_id: '1065403522429', waba_id: '1022901293403', access_token: s.whatsapp_access_token },
      }),
      call('360dialog channel with its API key', 'POST', '/api/v1/channels/whatsapp', { token: s.api_key, body: { provider: '360dialog', phone_number: '+14155550101', access_token: s.dialog_api_key } }),
      call('360dialog notification with its inbound token', 'POST', '/webhooks/360dialog/chn_01JAAAAAAAAAAAAAAAAAAAAAAA', { rawBody: notification, headers: { 'x-channel-token': s.dialog_inbound_token } }),
      call('webhook with a secret in the body', 'POST', '/api/v1/webhooks', { token: s.api_key, body: { url: 'https://example.com/hook', secret: s.webhook_secret } }),
    ]);
    await call('revoke the spare key', 'DELETE', `/api/v1/api-keys/${spareId}`, { token: s.api_key });
    await call('revoked key', 'GET', '/api/v1/api-keys', { token: s.spare_api_key });
  }, 60_000);

  afterAll(async () => {
    await gw?.close();
    output.stop();
  });

  it('logged the run (the capture works): a line for each refused request', () => {
    expect(exchanges.filter((e) => e.status >= 400).length).toBeGreaterThan(15);
    expect(output.lines.some((l) => l.includes('"statusCode":401') && l.includes('/api/v1/api-keys'))).toBe(true);
    expect(output.lines.some((l) => l.includes('/oauth/token'))).toBe(true);
  });

  it('writes no secret into any log line', () => {
    const found = Object.entries(secrets).flatMap(([name, value]) =>
      output.lines.filter((line) => line.includes(value)).map((line) => `${name}: ${line.split(value).join(`<${name}>`).slice(0, 300)}`),
    );
    expect(found).toEqual([]);
  });

  it('echoes no secret in any error answer', () => {
    const found = exchanges
      .filter((e) => e.status >= 400)
      .flatMap((e) => Object.entries(secrets).filter(([, value]) => e.text.includes(value)).map(([name]) => `${e.label} (${e.status}) echoes ${name}`));
    expect(found).toEqual([]);
    // The refused ones were refused.
    const status = (label: string) => exchanges.find((e) => e.label === label)?.status;
    expect(status('token, wrong secret containing the real one')).toBe(401);
    expect(status('API key with a trailing character')).toBe(401);
    expect(status('revoked key')).toBe(401);
    expect(status('admin with a wrong token containing the real one')).toBe(401);
    expect(status('meta notify with the app secret as signature')).toBe(401);
  });
});
