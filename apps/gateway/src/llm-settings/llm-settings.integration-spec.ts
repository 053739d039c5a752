import { Headers } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { forwardedRoutes } from '../test/forwarded-routes';

/** `/api/v1/settings/llm` (issue 23 item 7): forwarded to responder-service (not running here) with the caller's tenant. */
describe('gateway: tenant LLM settings routes', () => {
  const routes = forwardedRoutes('gwllmsettings', 'responder');

  it('refuses a caller without credentials and asks nothing', async () => {
    expect((await routes.gw.request('GET', '/api/v1/settings/llm')).status).toBe(401);
    expect((await routes.gw.request('PUT', '/api/v1/settings/llm', { body: { model: 'x' } })).status).toBe(401);
    expect(routes.requests.messages).toEqual([]);
  });

  it('forwards PUT, GET and DELETE with the caller’s tenant and the body as sent', async () => {
    const body = { base_url: 'https://llm.example/v1', api_key: 'sk-1234', model: 'm', monthly_budget: '10' };
    const answers = await Promise.all([
      routes.call('PUT', '/settings/llm', body),
      routes.call('GET', '/settings/llm'),
      routes.call('DELETE', '/settings/llm'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
    await pollUntil(() => routes.requests.messages.length >= 3, { description: 'three requests on the responder-service topic' });
    expect(routes.requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value])).toEqual(
      expect.arrayContaining([
        ['llm-settings.put', { tenant_id: routes.account.tenant_id, settings: body }],
        ['llm-settings.get', { tenant_id: routes.account.tenant_id }],
        ['llm-settings.delete', { tenant_id: routes.account.tenant_id }],
      ]),
    );
  });
});
