import { pollUntil } from '@parley/testing';
import { GatewayTestApp, TEST_META_APP_SECRET, TEST_META_VERIFY_TOKEN } from '../test/gateway-test-app';
import { metaSignature } from './meta-signature';

const FAILURES = 3;
const PROBLEMS = 'https://parley.dev/problems';

/** CONTRACT.md §2/§7: unauthenticated intake is protected per client address; only failed credentials count. */
describe('gateway: per-address limit on failed credentials at provider intake (real Redis)', () => {
  let prod: GatewayTestApp;

  beforeAll(async () => {
    // Loopback is exempt outside production, so the limit is seen on an instance running as production.
    prod = await GatewayTestApp.start('gwabuse', { NODE_ENV: 'production', ADMIN_TOKEN: 'test-admin-token-abuse', INTAKE_AUTH_FAILURES_PER_MINUTE: String(FAILURES) });
  });

  afterAll(async () => {
    await prod?.close();
  });

  const verify = (token: string) => prod.request('GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42`);
  const empty = '{"object":"whatsapp_business_account","entry":[]}';
  const notify = (signature: string) =>
    prod.request('POST', '/webhooks/whatsapp', { rawBody: empty, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });

  it('never counts a provider that authenticates, and refuses an address after its failed attempts with 429 and Retry-After', async () => {
    // Correct credentials, however many, are never limited.
    for (let i = 0; i < FAILURES + 2; i++) {
      expect((await verify(TEST_META_VERIFY_TOKEN)).status).toBe(200);
      expect((await notify(metaSignature(empty, TEST_META_APP_SECRET))).status).toBe(200);
    }

    // The failures are counted per UTC minute: start them early in one, so they all land in the same window.
    await pollUntil(() => new Date().getUTCSeconds() < 40, { timeoutMs: 25_000, intervalMs: 250, description: 'an early second of a minute' });
    // Guessing: verify tokens and signatures count together.
    expect((await verify('guess-1')).status).toBe(403);
    expect((await notify('sha256=00')).status).toBe(401);
    expect((await verify('guess-2')).status).toBe(403);

    for (const refused of [await verify('guess-3'), await verify(TEST_META_VERIFY_TOKEN), await notify('sha256=00')]) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 429, type: `${PROBLEMS}/rate-limited` });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });
});
