import { Headers, RpcTopics, Topics, newId, type TenantPlanChangedEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

const ADMIN_TOKEN = 'test-admin-token-for-billing';

/**
 * billing-service is not running here (its behaviour is tested in its own project): these show what the gateway
 * answers itself, and that valid requests reach billing-service's request topic as the right pattern and payload.
 */
describe('gateway: billing routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwbilling', { ADMIN_TOKEN });
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.billing);
  });

  afterAll(async () => {
    await requests?.stop();
    await gw?.close();
  });

  const admin = (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) => gw.request(method, path, { headers: { authorization: `Bearer ${token}` }, body });

  it('refuses bad bodies, ids and credentials itself, naming the field, without a call to billing-service', async () => {
    const floatPrice = await admin('PUT', '/admin/v1/prices', { prices: [{ plan: 'pro', category: 'marketing', unit_price: 0.05, currency: 'USD' }] });
    expect(floatPrice.status).toBe(400);
    expect(floatPrice.body.errors).toEqual([{ field: 'prices[0].unit_price', message: expect.stringContaining('decimal string') }]);
    const badCategory = await admin('PUT', '/admin/v1/prices', { prices: [{ plan: 'pro', category: 'fax', unit_price: '1', currency: 'USD' }] });
    expect(badCategory.body.errors).toEqual([{ field: 'prices[0].category', message: expect.stringContaining('service, marketing') }]);
    expect((await admin('PUT', '/admin/v1/prices', { prices: [] }, 'wrong-token')).status).toBe(401);
    // A tenant's API key is no operator credential.
    expect((await admin('PUT', '/admin/v1/prices', { prices: [] }, account.api_key)).status).toBe(401);

    const adjustments = `/admin/v1/tenants/${account.tenant_id}/wallet/adjustments`;
    const floatAmount = await admin('POST', adjustments, { amount: 2.5, reference: 'r1', description: 'goodwill' });
    expect(floatAmount.body.errors).toEqual([{ field: 'amount', message: expect.stringContaining('signed decimal string') }]);
    expect((await admin('POST', '/admin/v1/tenants/nope/wallet/adjustments', { amount: '1', reference: 'r', description: 'd' })).status).toBe(404);
    expect((await gw.request('GET', '/api/v1/billing/transactions?limit=0', { token: account.api_key })).body.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    expect(requests.messages).toEqual([]);
  });

  it('forwards each route to billing-service as its pattern, tenant routes with the caller’s tenant', async () => {
    const prices = [{ plan: 'pro', category: 'marketing', unit_price: '0.05', currency: 'USD' }];
    const reference = newId('evt');
    const answers = await Promise.all([
      gw.request('GET', '/api/v1/billing/prices', { token: account.api_key }),
      gw.request('GET', '/api/v1/billing/wallet', { token: account.api_key }),
      gw.request('GET', '/api/v1/billing/transactions?limit=5', { token: account.api_key }),
      admin('PUT', '/admin/v1/prices', { prices }),
      admin('POST', `/admin/v1/tenants/${account.tenant_id}/wallet/adjustments`, { amount: '-2.50', reference, description: 'correction' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);

    await pollUntil(() => requests.messages.length >= 5, { description: 'five requests on the billing-service topic' });
    const tenant_id = account.tenant_id;
    expect(Object.fromEntries(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]))).toEqual({
      'billing.prices': { tenant_id },
      'billing.wallet': { tenant_id },
      'billing.transactions': { tenant_id, limit: 5, cursor: null },
      'billing.set-prices': { body: { prices } },
      'billing.adjust': { tenant_id, body: { amount: '-2.50', reference, description: 'correction' } },
    });
  });

  it('checks top-up and invoice requests itself, and relays a payment webhook’s exact bytes and signature to billing-service', async () => {
    const before = requests.messages.length;
    const floatAmount = await gw.request('POST', '/api/v1/billing/top-ups', { token: account.api_key, body: { amount: 20 } });
    expect(floatAmount.status).toBe(400);
    expect(floatAmount.body.errors).toEqual([{ field: 'amount', message: expect.stringContaining('decimal string') }]);
    expect((await gw.request('POST', '/api/v1/billing/top-ups', { token: account.api_key, body: { amount: '5.00', coupon: 'x' } })).body.errors).toEqual([
      { field: 'coupon', message: expect.any(String) },
    ]);
    expect((await gw.request('GET', '/api/v1/billing/invoices/not-an-invoice.pdf', { token: account.api_key })).status).toBe(404);
    const oversized = await gw.request('POST', '/webhooks/stripe', { rawBody: `{"pad":"${'x'.repeat(300 * 1024)}"}`, headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' } });
    expect(oversized.status).toBe(413);

    // Not JSON-reparsed on the way: the signature covers these bytes, spacing and all.
    const payload = '{ "id": "evt_1",  "object": "event", "type": "checkout.session.completed" }';
    const [list, relayed] = await Promise.all([
      gw.request('GET', '/api/v1/billing/invoices', { token: account.api_key }),
      gw.request('POST', '/webhooks/stripe', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=ab' } }),
    ]);
    // billing-service is not running here: 503, and Stripe would redeliver.
    expect([list.status, relayed.status]).toEqual([503, 503]);
    await pollUntil(() => requests.messages.length >= before + 2, { description: 'two requests on the billing-service topic' });
    expect(Object.fromEntries(requests.messages.slice(before).map((m) => [m.headers[Headers.RpcPattern], m.value]))).toEqual({
      'billing.invoices': { tenant_id: account.tenant_id, limit: 50, cursor: null },
      'billing.payment-webhook': { payload, signature: 't=1,v1=ab' },
    });
  });

  it('tells billing-service of an operator’s plan change (tenant.plan_changed, keyed by the tenant)', async () => {
    const plans = await gw.kafka.probe<TenantPlanChangedEvent>(Topics.TenantPlanChanged);
    try {
      expect((await admin('PATCH', `/admin/v1/tenants/${account.tenant_id}`, { plan: 'pro' })).status).toBe(200);
      const changed = await pollUntil(() => plans.find((m) => m.value.tenant_id === account.tenant_id), { description: 'tenant.plan_changed' });
      expect(changed.key).toBe(account.tenant_id);
      expect(changed.value.data).toEqual({ tenant_id: account.tenant_id, plan: 'pro', at: expect.any(String) });
    } finally {
      await plans.stop();
    }
  });
});
