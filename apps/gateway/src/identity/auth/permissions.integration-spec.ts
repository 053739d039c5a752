import { Headers, PERMISSIONS, RpcTopics, newId, type CreatedAccount, type Permission } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type HttpAnswer } from '../../test/gateway-test-app';
import { signedInMember, type Browser } from '../../test/member-browser';

const FORBIDDEN = 'https://parley.dev/problems/forbidden';
/** scrypt at its lowest allowed cost: members sign in several times here. */
const ENV = { PASSWORD_SCRYPT_LOG_N: '14' };

type Route = [method: string, path: string, body?: unknown];

const agentBody = { name: 'support', instruction: 'Help.', greeting: '', skills: [] };

/** What an `agent` may not do (issue 32 item 6, CONTRACT.md §12), and the permission each route takes. */
const MANAGERS_ONLY: [Permission, Route[]][] = [
  [
    'agents.manage',
    [
      ['PUT', '/api/v1/agents/support', agentBody],
      ['DELETE', '/api/v1/agents/support'],
      ['POST', '/api/v1/agents/support/documents', { title: 'Prices', text: 'A tune-up is 40 euros.' }],
      ['DELETE', `/api/v1/agents/support/documents/${newId('doc')}`],
    ],
  ],
  [
    'channels.manage',
    [
      ['POST', '/api/v1/channels/whatsapp', { provider: 'sandbox' }],
      ['POST', '/api/v1/channels/sms', { provider: 'sandbox', phone_number: '+14155550101' }],
      ['POST', '/api/v1/channels/email', { provider: 'sandbox', address: 'shop@example.com' }],
      ['POST', '/api/v1/channels/voice', { provider: 'sandbox', phone_number: '+14155550102' }],
      ['PATCH', `/api/v1/channels/${newId('chn')}`, { agent: null }],
      ['DELETE', `/api/v1/channels/${newId('chn')}`],
    ],
  ],
  [
    'campaigns.manage',
    [
      ['GET', '/api/v1/campaigns'],
      ['POST', '/api/v1/campaigns', { name: 'Spring', template: { name: 'hello_world', language: 'en_US' }, audience: { tags: ['vip'] } }],
      ['POST', `/api/v1/campaigns/${newId('cpg')}/start`],
    ],
  ],
  [
    'templates.manage',
    [
      ['POST', '/api/v1/templates', { name: 'spring_sale', language: 'en', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale!' }] }],
      ['DELETE', `/api/v1/templates/${newId('tpl')}`],
    ],
  ],
  ['contacts.export', [['GET', '/api/v1/contacts/export']]],
  [
    'billing.manage',
    [
      ['GET', '/api/v1/billing/wallet'],
      ['POST', '/api/v1/billing/top-ups', { amount: '10.00' }],
      ['GET', '/api/v1/billing/invoices'],
    ],
  ],
  ['team.manage', [['POST', '/api/v1/team', { email: 'new.person@example.com', name: 'New', role: 'agent' }]]],
  [
    'webhooks.manage',
    [
      ['GET', '/api/v1/webhooks'],
      ['POST', '/api/v1/webhooks', { url: 'https://example.com/hook' }],
    ],
  ],
  [
    'credentials.manage',
    [
      ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys', { name: 'mine' }],
      ['DELETE', `/api/v1/api-keys/${newId('key')}`],
    ],
  ],
  [
    'settings.manage',
    [
      ['GET', '/api/v1/settings/llm'],
      ['PUT', '/api/v1/settings/llm', { base_url: 'https://llm.example.com/v1', api_key: 'sk-x', model: 'm', monthly_budget: '5.00' }],
      ['POST', '/api/v1/pipelines', { name: 'Repairs', stages: ['new', 'done'] }],
      ['POST', '/api/v1/integrations/calendar/rotate'],
    ],
  ],
];

/** What an `agent` does: each reaches the owning service as its request-reply pattern. */
const conversation = newId('cnv');
const AGENT_WORK: [Route, keyof typeof RpcTopics, string][] = [
  [['GET', '/api/v1/conversations?q=battery'], 'responder', 'conversations.list'],
  [['POST', `/api/v1/conversations/${conversation}/messages`, { message: 'On it.' }], 'responder', 'conversations.reply'],
  [['POST', `/api/v1/conversations/${conversation}/notes`, { text: 'Called back.' }], 'responder', 'conversations.note'],
  [['POST', '/api/v1/contacts', { phone: '+14155550150', name: 'Kari' }], 'crm', 'contacts.create'],
  [['POST', '/api/v1/deals', { title: 'New bike', contact_id: newId('ctc'), value: { amount: '450.00', currency: 'EUR' } }], 'crm', 'deals.create'],
  [['GET', '/api/v1/agents'], 'agents', 'agents.list'],
  [['POST', '/api/v1/agents/support/test', { message: 'do you fix brakes?' }], 'responder', 'replies.preview'],
  [['GET', '/api/v1/channels'], 'messaging', 'channels.list'],
  [['GET', '/api/v1/templates'], 'messaging', 'templates.list'],
];

/**
 * Roles that match the work (issue 32 item 6, CONTRACT.md §12) on one gateway with real PostgreSQL, Redis and Kafka:
 * the owning services are not running, so a request the gateway lets through shows as a request on the service's
 * topic (and a 503 when nobody answers); a refused one is a 403 before any call.
 */
describe('gateway: what each role may do (real PostgreSQL, Redis and Kafka)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let agent: { id: string; browser: Browser };
  let admin: { id: string; browser: Browser };
  const probes: Partial<Record<keyof typeof RpcTopics, TopicProbe<Record<string, unknown>>>> = {};

  /** The request patterns each service's topic has seen. */
  const patterns = (service: keyof typeof RpcTopics) => (probes[service]?.messages ?? []).map((m) => m.headers[Headers.RpcPattern]);

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwperms', ENV);
    account = await gw.signUp('Fjord Bikes');
    for (const service of ['responder', 'crm', 'agents', 'messaging', 'campaigns'] as const) probes[service] = await gw.kafka.probe(RpcTopics[service]);
    [agent, admin] = [await signedInMember(gw, account.api_key, 'agent'), await signedInMember(gw, account.api_key, 'admin')];
  });

  afterAll(async () => {
    for (const probe of Object.values(probes)) await probe?.stop();
    await gw?.close();
  });

  it('tells the signed-in member what their role may do, and lists every role', async () => {
    const me = await agent.browser.request('GET', '/api/v1/team/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(expect.objectContaining({ id: agent.id, role: 'agent', permissions: ['conversations.reply', 'contacts.edit', 'messages.send'] }));
    const adminMe = await admin.browser.request('GET', '/api/v1/team/me');
    expect(adminMe.body.permissions).toEqual(Object.keys(PERMISSIONS).filter((p) => p !== 'team.manage_owners'));

    const roles = await agent.browser.request('GET', '/api/v1/team/roles');
    expect(roles.status).toBe(200);
    expect(roles.body.data.map((r: { role: string; permissions: string[] }) => [r.role, r.permissions.length])).toEqual([
      ['owner', Object.keys(PERMISSIONS).length],
      ['admin', Object.keys(PERMISSIONS).length - 1],
      ['agent', 3],
    ]);
    expect(roles.body.data[2].description).toContain('Answers conversations');
  });

  it('refuses an agent every route of the work it may not do with 403 problem+json naming the role and the work', async () => {
    const teammate = await signedInMember(gw, account.api_key, 'agent');
    const routes: [Permission, Route][] = [
      ...MANAGERS_ONLY.flatMap(([permission, list]) => list.map((route): [Permission, Route] => [permission, route])),
      ['team.manage', ['PATCH', `/api/v1/team/${teammate.id}`, { role: 'admin' }]],
      ['team.manage', ['DELETE', `/api/v1/team/${teammate.id}`]],
    ];
    const started = Date.now();
    const refused = await Promise.all(routes.map(async ([permission, [method, path, body]]) => ({ permission, method, path, answer: await agent.browser.request(method, path, { body, csrf: true }) })));
    for (const { permission, method, path, answer } of refused) {
      expect({ method, path, status: answer.status, type: answer.body.type, media: answer.headers.get('content-type') }).toEqual({
        method,
        path,
        status: 403,
        type: FORBIDDEN,
        media: expect.stringContaining('application/problem+json'),
      });
      expect({ path, detail: answer.body.detail }).toEqual({ path, detail: `A team member with the role "agent" may not ${PERMISSIONS[permission]} (it takes the permission ${permission}, which an owner or an admin has).` });
    }
    // Refused before any call to a service (which would have waited for an answer that never comes).
    expect(Date.now() - started).toBeLessThan(4500);
    // The same with the member's bearer access token.
    expect((await gw.request('GET', '/api/v1/campaigns', { token: agent.browser.accessToken })).status).toBe(403);
    expect((await gw.request('GET', '/api/v1/contacts/export', { token: agent.browser.accessToken })).status).toBe(403);
    // The teammate is untouched.
    expect((await teammate.browser.request('GET', '/api/v1/team/me')).body.role).toBe('agent');
  });

  it('lets an agent answer conversations, add notes, contacts and deals, read agents, channels and templates, and test an agent', async () => {
    const answers = await Promise.all(AGENT_WORK.map(async ([[method, path, body]]) => ({ path, answer: await agent.browser.request(method, path, { body, csrf: true }) })));
    for (const { path, answer } of answers) expect({ path, forbidden: answer.status === 403 }).toEqual({ path, forbidden: false });
    for (const [[, path], service, pattern] of AGENT_WORK) {
      await pollUntil(() => patterns(service).includes(pattern), { description: `${path} to reach ${service} as ${pattern}` });
    }
    // The inbox knows who acts: the member, not a program.
    const reply = probes.responder!.messages.find((m) => m.headers[Headers.RpcPattern] === 'conversations.reply');
    expect(reply?.value).toMatchObject({ tenant_id: account.tenant_id, actor: { type: 'member', id: agent.id } });
  });

  it('lets an admin and a program (API key) do what the agent may not', async () => {
    const check = async (answer: Promise<HttpAnswer>, service: keyof typeof RpcTopics, pattern: string) => {
      expect((await answer).status).not.toBe(403);
      await pollUntil(() => patterns(service).includes(pattern), { description: `${pattern} on ${service}` });
    };
    await Promise.all([
      check(admin.browser.request('GET', '/api/v1/campaigns'), 'campaigns', 'campaigns.list'),
      check(admin.browser.request('GET', '/api/v1/contacts/export'), 'crm', 'contacts.export-page'),
      check(gw.request('PUT', '/api/v1/agents/support', { token: account.api_key, body: agentBody }), 'agents', 'agents.upsert'),
      check(gw.request('POST', '/api/v1/channels/sms', { token: account.api_key, body: { provider: 'sandbox', phone_number: '+14155550101' } }), 'messaging', 'channels.connect-sms'),
    ]);
    expect((await admin.browser.request('GET', '/api/v1/api-keys')).status).toBe(200);
    expect((await gw.request('GET', '/api/v1/webhooks', { token: account.api_key })).status).not.toBe(403);
  });

  it('documents each permission on its routes in the OpenAPI document', async () => {
    const document = (await gw.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { 'x-parley-permissions'?: string[]; responses: Record<string, unknown> }>> };
    const operation = (method: string, path: string) => document.paths[openApiPath(path)]?.[method.toLowerCase()];
    for (const [permission, routes] of MANAGERS_ONLY) {
      for (const [method, path] of routes) {
        const op = operation(method, path);
        expect({ method, path, permissions: op?.['x-parley-permissions'], has403: Boolean(op?.responses['403']) }).toEqual({ method, path, permissions: [permission], has403: true });
      }
    }
    expect(document.paths['/api/v1/team/me'].get['x-parley-permissions']).toEqual([]);
  });
});

/** The documented path of a concrete one: `/api/v1/agents/support/documents/doc_…` → `/api/v1/agents/{agent_name}/documents/{document_id}`. */
function openApiPath(path: string): string {
  return path
    .replace(/^\/api\/v1\/agents\/support/, '/api/v1/agents/{agent_name}')
    .replace(/\/doc_[0-9A-Z]{26}/, '/{document_id}')
    .replace(/\/chn_[0-9A-Z]{26}/, '/{channel_id}')
    .replace(/\/(cpg|tpl|key|usr)_[0-9A-Z]{26}/, '/{id}');
}
