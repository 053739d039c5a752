import { Headers, newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { forwardedRoutes } from '../test/forwarded-routes';

describe('gateway: pipelines and deals routes', () => {
  const routes = forwardedRoutes('gwdeals', 'crm');
  const { call } = routes;
  const dealId = newId('del');
  const contactId = newId('ctc');
  const pipelineId = newId('pip');

  const deal = (value: unknown) => ({ title: 'Kitchen', contact_id: contactId, value });

  it('refuses bad queries, bodies and impossible ids itself, naming the field, without a call', async () => {
    for (const [method, path, body, field] of [
      ['GET', '/deals?limit=0', undefined, 'limit'],
      ['GET', '/deals?pipeline_id=sales', undefined, 'pipeline_id'],
      ['GET', '/deals?contact_id=ana', undefined, 'contact_id'],
      ['POST', '/pipelines', { name: 'Sales', stages: [] }, 'stages'],
      ['POST', '/pipelines', { name: 'Sales', stages: ['a', 'a'] }, 'stages'],
      ['POST', '/pipelines', { stages: ['a'] }, 'name'],
      ['POST', '/deals', { ...deal({ amount: '1', currency: 'EUR' }), title: '' }, 'title'],
      ['POST', '/deals', { ...deal({ amount: '1', currency: 'EUR' }), contact_id: 'ana' }, 'contact_id'],
      ['POST', '/deals', deal({ amount: 1234567.89, currency: 'EUR' }), 'value.amount'],
      ['POST', '/deals', deal({ amount: '1.2e3', currency: 'EUR' }), 'value.amount'],
      ['POST', '/deals', deal({ amount: '-1', currency: 'EUR' }), 'value.amount'],
      ['POST', '/deals', deal({ amount: '1', currency: 'eur' }), 'value.currency'],
      ['POST', '/deals', deal({ amount: '1', currency: 'XYZ' }), 'value.currency'],
      ['POST', '/deals', deal('100 EUR'), 'value'],
      ['POST', '/deals', { ...deal({ amount: '1', currency: 'EUR' }), owner: 'bob' }, 'owner'],
      // a well-formed id that is no member of this team (the gateway owns the team)
      ['POST', '/deals', { ...deal({ amount: '1', currency: 'EUR' }), owner: newId('usr') }, 'owner'],
      ['PATCH', `/deals/${dealId}`, { owner: newId('usr') }, 'owner'],
      ['PATCH', `/deals/${dealId}`, { stage: '' }, 'stage'],
      ['PATCH', `/deals/${dealId}`, { pipeline_id: pipelineId }, 'pipeline_id'],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ path, body, status: answer.status, fields: [...new Set(answer.body.errors?.map((e: { field: string }) => e.field))] }).toEqual({ path, body, status: 400, fields: [field] });
    }
    for (const [method, path] of [
      ['GET', '/deals/nope'],
      ['GET', `/deals/${contactId}`],
      ['PATCH', '/deals/nope'],
      ['DELETE', '/deals/nope'],
    ] as const) {
      const answer = await call(method, path, method === 'PATCH' ? { title: 'x' } : undefined);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    expect(routes.requests.messages).toEqual([]);
  });

  it("refuses a body naming another tenant with 403, without a call", async () => {
    const before = routes.requests.messages.length;
    const other = newId('ten');
    for (const [method, path, body] of [
      ['POST', '/pipelines', { name: 'Sales', stages: ['a'], tenant_id: other }],
      ['POST', '/deals', { ...deal({ amount: '1', currency: 'EUR' }), tenant_id: other }],
      ['PATCH', `/deals/${dealId}`, { stage: 'won', tenant_id: other }],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ path, status: answer.status, fields: answer.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ path, status: 403, fields: ['tenant_id'] });
    }
    expect(routes.requests.messages.length).toBe(before);
  });

  it('needs a credential', async () => {
    expect((await routes.gw.request('GET', '/api/v1/deals')).status).toBe(401);
    expect((await routes.gw.request('GET', '/api/v1/pipelines')).status).toBe(401);
  });

  it('forwards each route to crm-service as its pattern with the caller tenant, and answers 503 when nobody replies', async () => {
    const member = await call('POST', '/team', { email: `tom-${Date.now()}@example.com`, name: 'Tom', role: 'agent' });
    expect(member.status).toBe(201);
    const owner = member.body.id as string;
    const answers = await Promise.all([
      call('GET', '/pipelines'),
      call('POST', '/pipelines', { name: 'Renovations', stages: ['visit', 'quote', 'signed'] }),
      call('POST', '/deals', { ...deal({ amount: '1234567.89', currency: 'EUR' }), pipeline_id: pipelineId, stage: 'visit', owner }),
      call('GET', `/deals?stage=won&contact_id=${contactId}&limit=10`),
      call('GET', `/deals/${dealId}`),
      call('PATCH', `/deals/${dealId}`, { stage: 'won', value: null }),
      call('DELETE', `/deals/${dealId}`),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503, 503]);
    await pollUntil(() => routes.requests.messages.length >= 7, { description: 'seven requests on the crm-service topic' });
    const byPattern = Object.fromEntries(routes.requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = routes.account.tenant_id;
    expect(byPattern).toEqual({
      'pipelines.list': { tenant_id },
      'pipelines.create': { tenant_id, body: { name: 'Renovations', stages: ['visit', 'quote', 'signed'] } },
      // the amount travels as the string it was given
      'deals.create': { tenant_id, body: { title: 'Kitchen', contact_id: contactId, pipeline_id: pipelineId, stage: 'visit', value: { amount: '1234567.89', currency: 'EUR' }, owner } },
      'deals.list': { tenant_id, limit: 10, cursor: null, stage: 'won', contact_id: contactId },
      'deals.get': { tenant_id, id: dealId },
      'deals.update': { tenant_id, id: dealId, body: { stage: 'won', value: null } },
      'deals.delete': { tenant_id, id: dealId },
    });
  });
});
