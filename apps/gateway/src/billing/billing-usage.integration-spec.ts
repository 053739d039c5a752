import { Headers, RpcTopics } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** `GET /api/v1/billing/usage` (CONTRACT.md §9): `days` checked here, the rest answered by billing-service (not running here). */
describe('gateway: billing usage route', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwbillingusage');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.billing);
  });

  afterAll(async () => {
    await requests?.stop();
    await gw?.close();
  });

  it('refuses a days outside 1–366 naming the field, and forwards a valid one (30 by default) with the caller’s tenant', async () => {
    for (const days of ['0', '367', 'week']) {
      const answer = await gw.request('GET', `/api/v1/billing/usage?days=${days}`, { token: account.api_key });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toContainEqual({ field: 'days', message: 'days must be a whole number from 1 to 366' });
      expect(new Set(answer.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['days']));
    }
    expect(requests.messages).toEqual([]);

    const answers = await Promise.all([
      gw.request('GET', '/api/v1/billing/usage?days=7', { token: account.api_key }),
      gw.request('GET', '/api/v1/billing/usage', { token: account.api_key }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    await pollUntil(() => requests.messages.length >= 2, { description: 'two requests on the billing-service topic' });
    expect(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value])).toEqual(
      expect.arrayContaining([
        ['billing.usage', { tenant_id: account.tenant_id, days: 7 }],
        ['billing.usage', { tenant_id: account.tenant_id, days: 30 }],
      ]),
    );
  });
});
