import { Headers, RpcTopics, newId } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * webhook-service is not running here (its behaviour is tested in its own project): these show what the gateway
 * answers itself, and that valid requests reach webhook-service's request topic as the right pattern and payload.
 */
describe('gateway: webhook delivery routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;
  const endpointId = newId('whk');
  const deliveryId = newId('dlv');

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwwebhooks');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.webhooks);
  });

  afterAll(async () => {
    await requests?.stop();
    await gw?.close();
  });

  const call = (method: string, path: string, body?: unknown) => gw.request(method, `/api/v1/webhooks${path}`, { token: account.api_key, body });

  it('refuses bad query, body and ids itself, naming the field, without a call to webhook-service', async () => {
    const started = Date.now();
    const badStatus = await call('GET', `/${endpointId}/deliveries?status=lost`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors).toEqual([{ field: 'status', message: expect.stringContaining('pending, succeeded, dead') }]);
    expect((await call('GET', `/${endpointId}/deliveries?limit=0`)).body.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);

    const badSince = await call('POST', `/${endpointId}/replay`, { since: 'last tuesday' });
    expect(badSince.status).toBe(400);
    expect(badSince.body.errors).toEqual([{ field: 'since', message: expect.stringContaining('ISO 8601') }]);
    expect((await call('POST', `/${endpointId}/replay`, {})).body.errors).toEqual([{ field: 'since', message: expect.any(String) }]);
    const extra = await call('POST', `/${endpointId}/replay`, { since: new Date().toISOString(), force: true });
    expect(extra.body.errors).toEqual([{ field: 'force', message: 'force is not an allowed field' }]);

    for (const [method, path] of [
      ['POST', '/nope/rotate-secret'],
      ['POST', '/nope/test'],
      ['GET', '/nope/deliveries'],
      ['POST', `/nope/deliveries/${deliveryId}/retry`],
      ['POST', `/${endpointId}/deliveries/nope/retry`],
      ['GET', `/nope/deliveries/${deliveryId}`],
      ['GET', `/${endpointId}/deliveries/nope`],
    ]) {
      const answer = await call(method, path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    // An RPC to the absent webhook-service would only end with its 5 s time-out.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(requests.messages).toEqual([]);
  });

  it('forwards each route to webhook-service as its pattern with the caller’s tenant, and answers 503 when nobody replies', async () => {
    const since = new Date(Date.now() - 3600_000).toISOString();
    const answers = await Promise.all([
      call('POST', `/${endpointId}/rotate-secret`),
      call('POST', `/${endpointId}/test`),
      call('GET', `/${endpointId}/deliveries?status=dead&limit=10`),
      call('POST', `/${endpointId}/deliveries/${deliveryId}/retry`),
      call('GET', `/${endpointId}/deliveries/${deliveryId}`),
      call('POST', `/${endpointId}/replay`, { since }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503]);

    await pollUntil(() => requests.messages.length >= 6, { description: 'six requests on the webhook-service topic' });
    const byPattern = Object.fromEntries(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = account.tenant_id;
    expect(byPattern).toEqual({
      'webhooks.rotate-secret': { tenant_id, id: endpointId },
      'webhooks.test': { tenant_id, id: endpointId },
      'deliveries.list': { tenant_id, endpoint_id: endpointId, status: 'dead', limit: 10, cursor: null },
      'deliveries.retry': { tenant_id, endpoint_id: endpointId, delivery_id: deliveryId },
      'deliveries.get': { tenant_id, endpoint_id: endpointId, delivery_id: deliveryId },
      'webhooks.replay': { tenant_id, id: endpointId, body: { since } },
    });
  });
});
