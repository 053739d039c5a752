import { Headers, RpcTopics, newId } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * campaign-service is not running here (its behaviour is tested in its own project): these show what the gateway answers
 * itself, and that valid requests reach campaign-service's request topic as the right pattern and payload.
 */
describe('gateway: campaign routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;
  let crmRequests: TopicProbe<Record<string, unknown>>;
  const campaignId = newId('cpg');
  const template = { name: 'spring_offer', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.name}}' }] }] };

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwcpg');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.campaigns);
    crmRequests = await gw.kafka.probe(RpcTopics.crm);
  });

  afterAll(async () => {
    await requests?.stop();
    await crmRequests?.stop();
    await gw?.close();
  });

  const call = (method: string, path: string, body?: unknown) => gw.request(method, `/api/v1${path}`, { token: account.api_key, body });

  it('refuses bad bodies, queries and impossible ids itself, naming the field, without a call', async () => {
    for (const [method, path, body, field] of [
      ['POST', '/campaigns', { template, audience: { tags: ['vip'] } }, 'name'],
      ['POST', '/campaigns', { name: 'x', template }, 'audience'],
      ['POST', '/campaigns', { name: 'x', audience: { tags: ['vip'] } }, 'template'],
      ['POST', '/campaigns', { name: 'x', template: { name: 'Bad Name', language: 'en' }, audience: { tags: ['vip'] } }, 'template.name'],
      ['POST', '/campaigns', { name: 'x', template, audience: { contact_ids: ['nope'] } }, 'audience.contact_ids'],
      ['POST', '/campaigns', { name: 'x', template, audience: { tags: ['vip'] }, schedule_at: 'tomorrow' }, 'schedule_at'],
      ['POST', '/campaigns', { name: 'x', template, audience: { tags: ['vip'] }, rate_per_second: 0 }, 'rate_per_second'],
      ['GET', `/campaigns/${campaignId}/recipients?status=lost`, undefined, 'status'],
      ['GET', '/campaigns?limit=101', undefined, 'limit'],
      ['POST', '/campaigns/audience-count', { audience: { tags: [''] } }, 'audience.tags'],
      ['POST', '/campaigns/audience-count', { audience: { attributes: { city: { nested: true } } } }, 'audience.attributes'],
      ['POST', '/campaigns/audience-count', {}, 'audience'],
    ] as [string, string, unknown, string][]) {
      const answer = await call(method, path, body);
      expect({ path, body, status: answer.status, fields: [...new Set(answer.body.errors?.map((e: { field: string }) => e.field))] }).toEqual({ path, body, status: 400, fields: [field] });
    }
    for (const path of ['/campaigns/nope', `/campaigns/${newId('ctc')}/start`, '/campaigns/nope/sends-per-minute']) {
      expect({ path, status: (await call(path.endsWith('start') ? 'POST' : 'GET', path)).status }).toEqual({ path, status: 404 });
    }
    expect(requests.messages).toEqual([]);
    expect(crmRequests.messages).toEqual([]);
  });

  it('forwards each route to campaign-service as its pattern with the caller tenant, and answers 503 when nobody replies', async () => {
    const answers = await Promise.all([
      call('POST', '/campaigns', { name: 'Spring', template, audience: { tags: ['vip'], attributes: { city: 'Lisbon' } }, schedule_at: '2030-01-01T09:00:00Z' }),
      call('GET', '/campaigns?limit=10'),
      call('GET', `/campaigns/${campaignId}`),
      call('GET', `/campaigns/${campaignId}/recipients?status=failed`),
      call('POST', `/campaigns/${campaignId}/pause`),
      call('GET', `/campaigns/${campaignId}/sends-per-minute`),
      call('POST', '/campaigns/audience-count', { audience: { tags: ['vip'], attributes: { tier: 2 } } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503, 503]);
    await pollUntil(() => requests.messages.length >= 6, { description: 'six requests on the campaign-service topic' });
    // the audience is counted where the contacts are
    await pollUntil(() => crmRequests.messages.length >= 1, { description: 'the count on the crm-service topic' });
    expect(crmRequests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value])).toEqual([
      ['contacts.audience-count', { tenant_id: account.tenant_id, audience: { tags: ['vip'], attributes: { tier: 2 } } }],
    ]);
    const byPattern = Object.fromEntries(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = account.tenant_id;
    expect(byPattern).toEqual({
      'campaigns.create': { tenant_id, body: { name: 'Spring', template, audience: { tags: ['vip'], attributes: { city: 'Lisbon' } }, schedule_at: '2030-01-01T09:00:00Z' } },
      'campaigns.list': { tenant_id, limit: 10, cursor: null },
      'campaigns.get': { tenant_id, id: campaignId },
      'campaigns.recipients': { tenant_id, id: campaignId, limit: 50, cursor: null, status: 'failed' },
      'campaigns.transition': { tenant_id, id: campaignId, action: 'pause' },
      'campaigns.sends-per-minute': { tenant_id, id: campaignId },
    });
  });
});
