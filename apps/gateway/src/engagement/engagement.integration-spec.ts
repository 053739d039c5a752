import { Headers, RpcTopics, newId } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import type { CreatedAccount } from '../accounts/accounts.service';
import { GatewayTestApp } from '../test/gateway-test-app';

/**
 * responder-service is not running here (its behaviour is tested in its own project): these show what the gateway
 * answers itself, and that valid requests reach responder-service's request topic as the right pattern and payload.
 */
describe('gateway: conversations, leads and appointments routes', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let requests: TopicProbe<Record<string, unknown>>;
  const conversationId = newId('cnv');

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwengage');
    account = await gw.signUp();
    requests = await gw.kafka.probe(RpcTopics.responder);
  });

  afterAll(async () => {
    await requests?.stop();
    await gw?.close();
  });

  const call = (method: string, path: string) => gw.request(method, `/api/v1${path}`, { token: account.api_key });

  it('refuses bad list queries and impossible ids itself, without a call', async () => {
    const started = Date.now();
    for (const path of ['/conversations?limit=0', '/leads?limit=abc', '/appointments?limit=101']) {
      const answer = await call('GET', path);
      expect({ path, status: answer.status, fields: [...new Set(answer.body.errors.map((e: { field: string }) => e.field))] }).toEqual({ path, status: 400, fields: ['limit'] });
    }
    for (const [method, path] of [
      ['GET', '/conversations/nope'],
      ['GET', `/conversations/${newId('led')}`],
      ['POST', '/conversations/nope/release'],
    ]) {
      const answer = await call(method, path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect(Date.now() - started).toBeLessThan(3000);
    expect(requests.messages).toEqual([]);
  });

  it('needs a credential', async () => {
    expect((await gw.request('GET', '/api/v1/leads')).status).toBe(401);
  });

  it('forwards each route to responder-service as its pattern with the caller tenant, and answers 503 when nobody replies', async () => {
    const answers = await Promise.all([
      call('GET', '/conversations?limit=10'),
      call('GET', `/conversations/${conversationId}`),
      call('POST', `/conversations/${conversationId}/release`),
      call('GET', '/leads?cursor=led_X'),
      call('GET', '/appointments'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    await pollUntil(() => requests.messages.length >= 5, { description: 'five requests on the responder-service topic' });
    const byPattern = Object.fromEntries(requests.messages.map((m) => [m.headers[Headers.RpcPattern], m.value]));
    const tenant_id = account.tenant_id;
    expect(byPattern).toEqual({
      'conversations.list': { tenant_id, limit: 10, cursor: null },
      'conversations.get': { tenant_id, id: conversationId },
      'conversations.release': { tenant_id, id: conversationId },
      'leads.list': { tenant_id, limit: 50, cursor: 'led_X' },
      'appointments.list': { tenant_id, limit: 50, cursor: null },
    });
  });
});
