import { pollUntil } from '@parley/testing';
import type { CreatedAccount } from '@parley/contracts';
import { GatewayTestApp } from '../../test/gateway-test-app';

/** CONTRACT.md §2: a revoked key is refused within 5 s on every instance, not only the one that revoked it. */
describe('gateway: API-key revocation across instances (real Redis pub/sub)', () => {
  let gw: GatewayTestApp;
  let other: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwrevoke');
    other = await gw.sibling({});
    account = await gw.signUp();
  });

  afterAll(async () => {
    await other?.close();
    await gw?.close();
  });

  it('refuses a key revoked on one instance on the other within 5 s, though the other had it cached', async () => {
    const created = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'ci' } });
    const key = created.body as { id: string; api_key: string };
    // The other instance now has the key cached as valid.
    expect((await other.request('GET', '/api/v1/usage', { token: key.api_key })).status).toBe(200);

    expect((await gw.request('DELETE', `/api/v1/api-keys/${key.id}`, { token: account.api_key })).status).toBe(204);
    const revokedAt = Date.now();
    await pollUntil(async () => (await other.request('GET', '/api/v1/usage', { token: key.api_key })).status === 401, {
      timeoutMs: 5000,
      intervalMs: 20,
      description: 'the other instance to refuse the revoked key',
    });
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    expect((await gw.request('GET', '/api/v1/usage', { token: key.api_key })).status).toBe(401);
    // The account's own key is untouched.
    expect((await other.request('GET', '/api/v1/usage', { token: account.api_key })).status).toBe(200);
  });
});
