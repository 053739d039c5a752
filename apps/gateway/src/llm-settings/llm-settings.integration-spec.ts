import { Headers, RpcTopics } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** `/api/v1/settings/llm` (issue 23 item 7): forwarded to responder-service (not running here) with the caller's tenant. */
describe('gateway: tenant LLM settings routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwllmsettings');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.responder);
  });

  afterAll(async () => {
    await requests?.stop();
    await gw?.close();
  });

  it('refuses a caller without credentials and asks nothing', async () => {
    expect((await gw.request('GET', '/api/v1/settings/llm')).status).toBe(401);
    expect((await gw.request('PUT', '/api/v1/settings/llm', { body: { model: 'x' } })).status).toBe(401);
    expect(requests.messages).toEqual([]);
  });

  it('forwards PUT, GET and DELETE with the caller’s tenant and the body as sent', async () => {
    const body = { base_url: 'https://llm.example/v1', api_key: 'sk-1234', model: 'm', monthly_budget: '10' };
    const answers = await Promise.all([
      gw.request('PUT', '/api/v1/settings/llm', { token: account.api_key, body }),
      gw.request('GET', '/api/v1/settings/llm', { token: account.api_key }),
      gw.request('DELETE', '/api/v1/settings/llm', { token: account.api_key }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
    await pollUntil(() => requests.messages.length >= 3, { description: 'three requests on the responder-service topic' });
    expect(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value])).toEqual(
      expect.arrayContaining([
        ['llm-settings.put', { tenant_id: account.tenant_id, settings: body }],
        ['llm-settings.get', { tenant_id: account.tenant_id }],
        ['llm-settings.delete', { tenant_id: account.tenant_id }],
      ]),
    );
  });
});
