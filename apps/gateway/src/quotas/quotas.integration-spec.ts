import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type HttpAnswer, type CreatedAccount } from '../test/gateway-test-app';

const LIMIT = 5;
const PRO_LIMIT = 1000;
/** The largest Structured Fields integer: an unlimited plan's `r`. */
const UNLIMITED = 999_999_999_999_999;
const ADMIN_TOKEN = 'test-admin-token-for-quotas';
const PROBLEMS = 'https://parley.dev/problems';

/** The next UTC midnight, computed independently of the gateway's code. */
function nextMidnight(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

const secondsToMidnight = () => (nextMidnight().getTime() - Date.now()) / 1000;

/**
 * The per-address limits count in fixed windows (a minute, an hour): requests that must share one wait, when the
 * current window ends within `roomMs`, for the next to begin (once, on a loaded machine, the four token requests
 * spanned a minute's end and the fourth was allowed). The boundary is time itself, so time is what is waited for.
 */
async function roomInWindow(windowSeconds: number, roomMs: number): Promise<void> {
  const leftMs = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (leftMs < roomMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}

/** CONTRACT.md §8: the daily quota, counted in Redis across instances, and the operators' plan route. */
describe('gateway: daily quotas, plans and usage (real Redis, PostgreSQL and Kafka)', () => {
  let gw: GatewayTestApp;
  let other: GatewayTestApp;
  let account: CreatedAccount;
  const admin = (tenantId: string, body: unknown, token = ADMIN_TOKEN) =>
    gw.request('PATCH', `/admin/v1/tenants/${tenantId}`, { body, headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    const env = { FREE_PLAN_DAILY_LIMIT: String(LIMIT), PRO_PLAN_DAILY_LIMIT: String(PRO_LIMIT), ADMIN_TOKEN };
    gw = await GatewayTestApp.start('gwquota', env);
    // A second instance on the same database and Redis: the counter and plan changes must hold across both.
    other = await gw.sibling(env);
    account = await gw.signUp();
  });

  afterAll(async () => {
    await other?.close();
    await gw?.close();
  });

  const expectRateLimit = (answer: HttpAnswer, remaining: number, quota: number | null = LIMIT) => {
    expect(answer.headers.get('ratelimit-policy')).toBe(quota === null ? null : `"daily";q=${quota};w=86400`);
    const match = /^"daily";r=(\d+);t=(\d+)$/.exec(answer.headers.get('ratelimit') ?? '');
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBe(remaining);
    expect(Math.abs(Number(match![2]) - secondsToMidnight())).toBeLessThanOrEqual(2);
  };

  it('counts every authenticated request (4xx too, on any instance, not sign-up or /oauth/token) and refuses request limit+1 with 429', async () => {
    const token = await gw.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret },
    });
    expect(token.status).toBe(200);

    const first = await gw.request('GET', '/api/v1/usage', { token: account.api_key });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ plan: 'free', limit: LIMIT, used_today: 1, resets_at: nextMidnight().toISOString() });
    expectRateLimit(first, LIMIT - 1);

    const badRequest = await other.request('GET', '/api/v1/api-keys?limit=0', { token: account.api_key });
    expect(badRequest.status).toBe(400);
    expectRateLimit(badRequest, LIMIT - 2);

    const viaToken = await other.request('GET', '/api/v1/api-keys', { token: token.body.access_token });
    expect(viaToken.status).toBe(200);
    expectRateLimit(viaToken, LIMIT - 3);

    const forbidden = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { tenant_id: 'ten_01SOMEONEELSE00000000000000' } });
    expect(forbidden.status).toBe(403);
    expectRateLimit(forbidden, LIMIT - 4);

    const last = await gw.request('GET', '/api/v1/usage', { token: account.api_key });
    expect(last.body).toMatchObject({ plan: 'free', limit: LIMIT, used_today: LIMIT });
    expectRateLimit(last, 0);

    for (const instance of [gw, other]) {
      const refused = await instance.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550123', message: 'hi' } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 429, type: `${PROBLEMS}/quota-exceeded`, request_id: expect.any(String) });
      expect(Math.abs(Number(refused.headers.get('retry-after')) - secondsToMidnight())).toBeLessThanOrEqual(2);
      expectRateLimit(refused, 0);
    }

    // Another tenant has its own counter.
    const stranger = await gw.signUp('Stranger');
    const theirs = await gw.request('GET', '/api/v1/usage', { token: stranger.api_key });
    expect(theirs.body).toMatchObject({ used_today: 1 });
  });

  it('lets an operator change the plan: a higher limit (pro) or none (enterprise) at once on every instance, each answer with RateLimit, and back', async () => {
    // The other instance has the free plan cached (it refused above); the change must reach it without waiting.
    expect((await admin(account.tenant_id, { plan: 'pro' })).body).toEqual({ tenant_id: account.tenant_id, plan: 'pro' });
    for (const instance of [gw, other]) {
      const answer = await pollUntil(
        async () => {
          const a = await instance.request('GET', '/api/v1/usage', { token: account.api_key });
          return a.status === 200 ? a : undefined;
        },
        { timeoutMs: 3000, description: 'the pro plan to apply' },
      );
      expect(answer.body).toMatchObject({ plan: 'pro', limit: PRO_LIMIT, used_today: expect.any(Number) });
      expect(answer.body.used_today).toBeGreaterThan(LIMIT);
      expectRateLimit(answer, PRO_LIMIT - answer.body.used_today, PRO_LIMIT);
    }

    expect((await admin(account.tenant_id, { plan: 'enterprise' })).status).toBe(200);
    for (const instance of [gw, other]) {
      const answer = await pollUntil(
        async () => {
          const a = await instance.request('GET', '/api/v1/usage', { token: account.api_key });
          return a.body?.plan === 'enterprise' ? a : undefined;
        },
        { timeoutMs: 3000, description: 'the enterprise plan to apply' },
      );
      expect(answer.body).toMatchObject({ plan: 'enterprise', limit: null, used_today: expect.any(Number) });
      // Still counted (in batches, so another instance sees this one's requests shortly after): the day's count goes on.
      expect(answer.body.used_today).toBeGreaterThan(LIMIT);
      // No quota policy to describe, but the answer still says where the tenant stands.
      expectRateLimit(answer, UNLIMITED, null);
      const badRequest = await instance.request('GET', '/api/v1/api-keys?limit=0', { token: account.api_key });
      expect(badRequest.status).toBe(400);
      expectRateLimit(badRequest, UNLIMITED, null);
    }

    const usedOn = async (instance: typeof gw) => (await instance.request('GET', '/api/v1/usage', { token: account.api_key })).body.used_today as number;
    const before = await usedOn(other);
    for (let i = 0; i < 3; i++) await gw.request('GET', '/api/v1/usage', { token: account.api_key });
    // Each read on `other` counts itself too; beyond those, the three requests made on `gw` must show.
    let reads = 0;
    await pollUntil(async () => (await usedOn(other)) >= before + ++reads + 3, { timeoutMs: 3000, description: "the other instance to see this one's enterprise requests" });

    expect((await admin(account.tenant_id, { plan: 'free' })).status).toBe(200);
    await pollUntil(async () => (await other.request('GET', '/api/v1/api-keys', { token: account.api_key })).status === 429, {
      timeoutMs: 3000,
      description: 'the free plan to apply again',
    });
  });

  it('counts concurrent requests of a limited plan one each (batched per event-loop turn): distinct counts, exactly the limit allowed', async () => {
    const tenant = await gw.signUp('Concurrent');
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 3 }, (_, i) => (i % 2 ? other : gw).request('GET', '/api/v1/usage', { token: tenant.api_key })),
    );
    const remaining = answers.map((a) => Number(/;r=(\d+);/.exec(a.headers.get('ratelimit') ?? '')?.[1]));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    // The allowed ones got every count from 1 to LIMIT once (remaining LIMIT-1 .. 0); the refused ones report 0.
    const allowed = answers.flatMap((a, i) => (a.status === 200 ? [remaining[i]] : []));
    expect(allowed.sort((x, y) => x - y)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    expect((await gw.request('GET', '/api/v1/usage', { token: tenant.api_key })).status).toBe(429);
  });

  it('counts and labels answers that fail before any handler runs (malformed JSON, 415, 404, 413, 405), then refuses with 429 before reading the body', async () => {
    const tenant = await gw.signUp('Early failures');
    const token = tenant.api_key;
    const malformed = await gw.request('POST', '/api/v1/api-keys', { token, rawBody: '{"name": "ci",', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.type).toBe(`${PROBLEMS}/malformed-json`);
    expectRateLimit(malformed, LIMIT - 1);

    const unsupported = await other.request('POST', '/api/v1/api-keys', { token, rawBody: 'name=ci', headers: { 'content-type': 'text/plain' } });
    expect(unsupported.status).toBe(415);
    expectRateLimit(unsupported, LIMIT - 2);

    const unknown = await gw.request('GET', '/api/v1/nothing-here', { token });
    expect(unknown.status).toBe(404);
    expectRateLimit(unknown, LIMIT - 3);

    const tooLarge = await other.request('POST', '/api/v1/api-keys', { token, body: { name: 'x'.repeat(1024 * 1024) } });
    expect(tooLarge.status).toBe(413);
    expectRateLimit(tooLarge, LIMIT - 4);

    const wrongMethod = await gw.request('DELETE', '/v1/send', { token });
    expect(wrongMethod.status).toBe(405);
    expectRateLimit(wrongMethod, 0);

    // Over the quota: refused on arrival, whatever the body would have been.
    const refused = await other.request('POST', '/api/v1/api-keys', { token, rawBody: '{"name": "ci",', headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(429);
    expect(refused.body.type).toBe(`${PROBLEMS}/quota-exceeded`);
    expectRateLimit(refused, 0);

    // Without a valid credential an unknown route stays a 404 (nothing to count or label); sign-up is never counted.
    for (const authorization of [undefined, 'Bearer parley_sk_not-a-real-key', 'Basic abc']) {
      const answer = await gw.request('GET', '/api/v1/nothing-here', { headers: authorization ? { authorization } : {} });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('ratelimit')).toBeNull();
    }
    const signUp = await gw.request('POST', '/api/v1/accounts', { token, body: { name: 'Another shop' } });
    expect(signUp.status).toBe(201);
    expect(signUp.headers.get('ratelimit')).toBeNull();
    // The same request with a credential on a tenant route is refused as before: every count above stood.
    expect((await gw.request('GET', '/api/v1/usage', { token })).status).toBe(429);
  });

  it('guards the plan route with ADMIN_TOKEN and validates it', async () => {
    const unauthorized = [await admin(account.tenant_id, { plan: 'pro' }, ''), await admin(account.tenant_id, { plan: 'pro' }, `${ADMIN_TOKEN}x`), await admin(account.tenant_id, { plan: 'pro' }, account.api_key)];
    for (const answer of unauthorized) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.body.type).toBe(`${PROBLEMS}/unauthorized`);
    }
    const badPlan = await admin(account.tenant_id, { plan: 'platinum' });
    expect(badPlan.status).toBe(400);
    expect(badPlan.body.errors).toEqual([{ field: 'plan', message: 'plan must be one of: free, pro, enterprise' }]);
    expect((await admin(account.tenant_id, { plan: 'pro', colour: 'blue' })).body.errors).toEqual([{ field: 'colour', message: expect.any(String) }]);
    expect((await admin('ten_01AAAAAAAAAAAAAAAAAAAAAAAA', { plan: 'pro' })).status).toBe(404);
    expect((await admin('not-a-tenant', { plan: 'pro' })).status).toBe(404);
    // The plan is still free: none of these changed it.
    expect((await gw.request('GET', '/api/v1/usage', { token: account.api_key })).status).toBe(429);
  });

  describe('per-address limits on sign-up and /oauth/token', () => {
    let prod: GatewayTestApp;

    beforeAll(async () => {
      // Loopback is exempt outside production, so the limits are seen on an instance running as production.
      prod = await gw.sibling({ NODE_ENV: 'production', ADMIN_TOKEN, ACCOUNT_RATE_LIMIT_PER_HOUR: '2', TOKEN_RATE_LIMIT_PER_MINUTE: '3' });
    });

    afterAll(async () => {
      await prod?.close();
    });

    it('refuses sign-up number limit+1 from one address with a 429 problem and Retry-After', async () => {
      // the next test spends the same hour's allowance too
      await roomInWindow(3600, 60_000);
      for (let i = 0; i < 2; i++) expect((await prod.request('POST', '/api/v1/accounts', { body: { name: `Shop ${i}` } })).status).toBe(201);
      const refused = await prod.request('POST', '/api/v1/accounts', { body: { name: 'Shop 3' } });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: 429, type: `${PROBLEMS}/rate-limited` });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // A development instance exempts loopback.
      expect((await gw.request('POST', '/api/v1/accounts', { body: { name: 'Local' } })).status).toBe(201);
    });

    it('counts each client behind a trusted proxy by its X-Forwarded-For address, and ignores the header otherwise', async () => {
      // Trusted by its address, or as a number of hops (the nearest hop, the load balancer, is believed whoever connects)
      const settings = [
        { trustProxy: '127.0.0.1', clients: ['203.0.113.7', '203.0.113.8'] },
        { trustProxy: '1', clients: ['203.0.113.17', '203.0.113.18'] },
      ];
      for (const { trustProxy, clients } of settings) {
        const behindProxy = await gw.sibling({ NODE_ENV: 'production', ADMIN_TOKEN, ACCOUNT_RATE_LIMIT_PER_HOUR: '1', TRUST_PROXY: trustProxy });
        try {
          const signUp = (client: string) => behindProxy.request('POST', '/api/v1/accounts', { body: { name: `Shop of ${client}` }, headers: { 'x-forwarded-for': client } });
          expect([(await signUp(clients[0])).status, (await signUp(clients[1])).status, (await signUp(clients[0])).status]).toEqual([201, 201, 429]);
        } finally {
          await behindProxy.close();
        }
      }
      // `prod` trusts no proxy: the header names no one, and its limit (2 an hour) was spent by the test above
      const spoofed = await prod.request('POST', '/api/v1/accounts', { body: { name: 'Spoofed' }, headers: { 'x-forwarded-for': '198.51.100.9' } });
      expect(spoofed.status).toBe(429);
    });

    it('refuses token request limit+1 (failed ones count) in the OAuth error shape', async () => {
      await roomInWindow(60, 15_000);
      const wrong = { grant_type: 'client_credentials', client_id: account.client_id, client_secret: 'parley_cs_wrong' };
      for (let i = 0; i < 3; i++) expect((await prod.request('POST', '/oauth/token', { body: wrong })).status).toBe(401);
      const refused = await prod.request('POST', '/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'slow_down', error_description: expect.stringContaining('retry') });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    });
  });
});
