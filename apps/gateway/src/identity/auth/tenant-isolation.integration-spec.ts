import { RpcTopics, Topics, derivedId, type CreatedAccount, type IdPrefix, type MessageOutboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { randomUUID } from 'node:crypto';
import { GatewayTestApp } from '../../test/gateway-test-app';
import { tenantRoutes, type ControllerRoute } from '../../test/routes';

const PREFIX_BY_PARAM: Record<string, IdPrefix> = {
  message_id: 'msg',
  channel_id: 'chn',
  delivery_id: 'dlv',
  conversation_id: 'cnv',
  lead_id: 'led',
  appointment_id: 'apt',
  webhook_id: 'whk',
  agent_id: 'agt',
};
const PREFIX_BY_RESOURCE: Record<string, IdPrefix> = {
  'api-keys': 'key',
  messages: 'msg',
  webhooks: 'whk',
  channels: 'chn',
  conversations: 'cnv',
  leads: 'led',
  appointments: 'apt',
  agents: 'agt',
};

/**
 * CONTRACT.md §2 and issue 3: a tenant sees and changes only its own data. Every tenant route is tried with a second
 * tenant's identifiers. The owning services are not running here, so what is checked is the gateway's own part:
 * nothing local is reached or leaked (API keys), every request-reply call it makes carries the caller's tenant (never
 * one taken from the path or body), no route answers 500, and a body naming another tenant is refused with 403.
 */
/** Routes whose body is a file upload, not JSON. */
const FILE_BODIES = new Set(['POST /api/v1/media', 'POST /api/v1/contacts/import']);

describe('gateway: tenant isolation across every tenant route (real Kafka, PostgreSQL and Redis)', () => {
  let gw: GatewayTestApp;
  let mine: CreatedAccount;
  let theirs: CreatedAccount;
  const theirIds: Partial<Record<IdPrefix, string>> = {};
  const probes: TopicProbe<Record<string, unknown>>[] = [];
  let routes: ControllerRoute[];

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwisolation');
    for (const topic of Object.values(RpcTopics)) probes.push(await gw.kafka.probe<Record<string, unknown>>(topic));
    const outbound = await gw.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound);
    [mine, theirs] = [await gw.signUp('Mine'), await gw.signUp('Theirs')];
    const keys = await gw.request('GET', '/api/v1/api-keys', { token: theirs.api_key });
    theirIds.key = keys.body.data[0].id;
    const sent = await gw.request('POST', '/v1/send', { token: theirs.api_key, body: { channel: 'whatsapp', to: '+14155550111', message: 'theirs' } });
    theirIds.msg = sent.body.message_id;
    await pollUntil(() => outbound.find((m) => m.value.data.message_id === theirIds.msg), { description: 'their message' });
    await outbound.stop();
    routes = tenantRoutes(gw.app);
  });

  afterAll(async () => {
    await Promise.all(probes.map((p) => p.stop()));
    await gw?.close();
  });

  /** A path with the other tenant's identifiers in it. */
  const theirPath = (path: string) => {
    const resource = path.split('/').filter(Boolean)[path.startsWith('/api/') ? 2 : 1];
    return path.replace(/:([A-Za-z_]+)/g, (_, param: string) => {
      if (param === 'version') return '1';
      if (param.endsWith('name')) return 'their-agent';
      const prefix = PREFIX_BY_PARAM[param] ?? PREFIX_BY_RESOURCE[resource];
      return prefix ? (theirIds[prefix] ?? derivedId(prefix, theirs.tenant_id, param)) : 'theirs';
    });
  };

  /** One call that never hangs on a streaming answer. */
  const call = async (method: string, path: string, body?: unknown) => {
    const requestId = randomUUID();
    const response = await fetch(`${gw.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${mine.api_key}`, 'x-request-id': requestId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const streaming = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const text = streaming ? (await response.body?.cancel(), '') : await response.text();
    return { status: response.status, text, requestId };
  };

  const takesBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);

  it('finds the tenant routes to try', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    expect(listed).toEqual(expect.arrayContaining(['POST /v1/send', 'DELETE /api/v1/api-keys/:id', 'GET /api/v1/messages/:message_id', 'GET /api/v1/usage']));
  });

  it('never reaches, leaks or forwards another tenant: local 404s, caller-tenant RPCs, no 500', async () => {
    const results = await Promise.all(
      routes.map(async (route) => {
        const path = theirPath(route.path);
        return { route: `${route.method} ${path}`, ...(await call(route.method, path, takesBody(route.method) ? {} : undefined)) };
      }),
    );
    for (const result of results) {
      expect({ route: result.route, status: result.status }).toEqual({ route: result.route, status: expect.any(Number) });
      expect({ route: result.route, serverError: result.status >= 500 && result.status !== 503 }).toEqual({ route: result.route, serverError: false });
      expect({ route: result.route, leaks: result.text.includes(theirs.tenant_id) }).toEqual({ route: result.route, leaks: false });
    }
    // A 503 here means the gateway called the owning service (absent): that call must name the caller's tenant only.
    for (const result of results.filter((r) => r.status === 503)) {
      const calls = await pollUntil(
        () => {
          const found = probes.flatMap((p) => p.messages).filter((m) => m.headers['x-request-id'] === result.requestId);
          return found.length ? found : undefined;
        },
        { description: `the request-reply call of ${result.route}` },
      );
      for (const c of calls) expect({ route: result.route, tenant_id: c.value.tenant_id }).toEqual({ route: result.route, tenant_id: mine.tenant_id });
    }
    // The one local resource: their API key was not revoked and still works.
    expect(results.find((r) => r.route === `DELETE /api/v1/api-keys/${theirIds.key}`)?.status).toBe(404);
    expect((await gw.request('GET', '/api/v1/api-keys', { token: theirs.api_key })).status).toBe(200);
  });

  it('refuses a body naming another tenant with 403 on every route that takes a body', async () => {
    const writes = routes.filter((r) => takesBody(r.method));
    expect(writes.length).toBeGreaterThan(0);
    const results = await Promise.all(
      writes.map(async (route) => ({ route: `${route.method} ${route.path}`, ...(await call(route.method, theirPath(route.path), { tenant_id: theirs.tenant_id })) })),
    );
    for (const result of results) {
      if (FILE_BODIES.has(result.route)) {
        // These take a file (multipart or text/csv), never JSON: a JSON body is refused before any tenant is read.
        expect({ route: result.route, status: result.status }).toEqual({ route: result.route, status: 415 });
        continue;
      }
      expect({ route: result.route, status: result.status }).toEqual({ route: result.route, status: 403 });
      expect(JSON.parse(result.text)).toMatchObject({ type: 'https://parley.dev/problems/forbidden', errors: [{ field: 'tenant_id' }] });
    }
    expect(results.filter((r) => FILE_BODIES.has(r.route)).length).toBe(FILE_BODIES.size);
    // Nothing was forwarded for them.
    const forwarded = probes.flatMap((p) => p.messages).filter((m) => results.some((r) => r.requestId === m.headers['x-request-id']));
    expect(forwarded).toEqual([]);
  });
});
