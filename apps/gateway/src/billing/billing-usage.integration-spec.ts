import { Headers } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { forwardedRoutes } from '../test/forwarded-routes';

/** `GET /api/v1/billing/usage` (CONTRACT.md §9): `days` checked here, the rest answered by billing-service (not running here). */
describe('gateway: billing usage route', () => {
  const routes = forwardedRoutes('gwbillingusage', 'billing');

  it('refuses a days outside 1–366 naming the field, and forwards a valid one (30 by default) with the caller’s tenant', async () => {
    for (const days of ['0', '367', 'week']) {
      const answer = await routes.call('GET', `/billing/usage?days=${days}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toContainEqual({ field: 'days', message: 'days must be a whole number from 1 to 366' });
      expect(new Set(answer.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['days']));
    }
    expect(routes.requests.messages).toEqual([]);

    const answers = await Promise.all([
      routes.call('GET', '/billing/usage?days=7'),
      routes.call('GET', '/billing/usage'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    await pollUntil(() => routes.requests.messages.length >= 2, { description: 'two requests on the billing-service topic' });
    expect(routes.requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value])).toEqual(
      expect.arrayContaining([
        ['billing.usage', { tenant_id: routes.account.tenant_id, days: 7 }],
        ['billing.usage', { tenant_id: routes.account.tenant_id, days: 30 }],
      ]),
    );
  });
});
