/* eslint-disable @typescript-eslint/no-explicit-any -- answers and the OpenAPI document are walked generically */
import { pollUntil } from '@parley/testing';
import { join } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { routesFromOpenApi } from '../../../tools/fuzz/lib/cases.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT, readEnvFile } from '../../../tools/dev/lib/stack.cjs';
import { http, type HttpResponse } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

/** SQL-injection-shaped text, one per stored text field (each also tagged, so it can be told apart from the others). */
const SQL = [
  "'; DROP TABLE agents; --",
  "' OR '1'='1' --",
  '"; DELETE FROM messages WHERE ""="',
  "1; SELECT pg_sleep(10); --",
  '$$; DROP SCHEMA public CASCADE; $$',
  "\\'; TRUNCATE endpoints; --",
  "%' UNION SELECT secret, url FROM endpoints --",
  "' || (SELECT current_user) || '",
  "Robert'); DROP TABLE students;-- ✓",
];
const sql = (i: number, field: string) => `${SQL[i % SQL.length]} [${field}]`;

/** A well-formed identifier nobody has (for the kinds a fresh tenant has none of yet). */
const unknownId = (prefix: string) => `${prefix}_01J${'Q'.repeat(23)}`;

interface Tenant {
  tenantId: string;
  apiKey: string;
}

/**
 * Issue 9, attacker's pass on the whole running system: tenant B's credential on every tenant route of
 * `/openapi.json` with tenant A's real resource ids answers 404 (or refuses the body), never A's data, and changes
 * nothing of A's; and SQL-injection-shaped text in every stored free-text field is kept and read back unchanged.
 */
describe('attacker’s pass: cross-tenant access on every route, SQL-shaped text in every text field', () => {
  let platform: Platform;
  const env = readEnvFile(join(ROOT, '.env.example'));
  let a: Tenant;
  let b: Tenant;
  const ids: Record<string, string> = {};
  const stored: Record<string, string> = {};
  let channel: { id: string; phone_number: string; phone_number_id: string; waba_id: string | null };

  const api = <T = any>(tenant: Tenant | null, method: string, path: string, json?: unknown): Promise<HttpResponse<T>> =>
    http<T>(method, `${platform.gateway}${path}`, { token: tenant?.apiKey, json });

  const signUp = async (name: string): Promise<Tenant> => {
    // With an owner (CONTRACT §12) whose name is SQL-shaped too: the team list reads it back.
    const owner = { email: `owner-${name.toLowerCase()}@example.com`, password: 'owner password 1234', owner_name: sql(10, `${name} owner name`) };
    const account = await http<{ tenant_id: string; api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: `${name} ${sql(0, 'account name')}`, ...owner } });
    expect(account.status).toBe(201);
    await http('PATCH', `${platform.gateway}/admin/v1/tenants/${account.body.tenant_id}`, { token: env.ADMIN_TOKEN, json: { plan: 'enterprise' } });
    // On enterprise every send is paid and an empty wallet refuses it (BILLING_ENFORCED): an operator's credit pays.
    const credit = await http('POST', `${platform.gateway}/admin/v1/tenants/${account.body.tenant_id}/wallet/adjustments`, {
      token: env.ADMIN_TOKEN,
      json: { amount: '20.00', reference: 'welcome-credit', description: 'welcome credit' },
    });
    expect(credit.status).toBe(201);
    return { tenantId: account.body.tenant_id, apiKey: account.body.api_key };
  };

  beforeAll(async () => {
    platform = await sharedPlatform();
    [a, b] = [await signUp('A'), await signUp('B')];

    Object.assign(stored, {
      instruction: sql(0, 'instruction'),
      greeting: sql(1, 'greeting'),
      question: sql(2, 'faq question'),
      answer: sql(3, 'faq answer'),
      description: sql(4, 'webhook description'),
      patchedDescription: sql(5, 'patched description'),
      keyName: sql(6, 'api key name'),
      sent: sql(7, 'sent message'),
      inbound: sql(8, 'inbound text'),
      memberName: sql(9, 'team member name'),
      ownerName: sql(10, 'A owner name'),
      reply: sql(11, 'inbox reply'),
      note: sql(12, 'inbox note'),
    });
    const agent = await api(a, 'PUT', '/api/v1/agents/shop', {
      name: 'shop',
      instruction: stored.instruction,
      greeting: stored.greeting,
      skills: ['faq_responder'],
      faqs: [{ question: stored.question, answer: stored.answer }],
    });
    expect(agent.status).toBe(201);
    ids.agent = agent.body.id;
    const webhook = await api(a, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', description: stored.description });
    expect(webhook.status).toBe(201);
    ids.webhook = webhook.body.id;
    ids.webhookSecret = webhook.body.secret;
    expect((await api(a, 'PATCH', `/api/v1/webhooks/${ids.webhook}`, { description: stored.patchedDescription })).status).toBe(200);
    const key = await api(a, 'POST', '/api/v1/api-keys', { name: stored.keyName });
    expect(key.status).toBe(201);
    ids.key = key.body.id;
    const member = await api(a, 'POST', '/api/v1/team', { email: 'agent@example.com', name: stored.memberName, role: 'agent' });
    expect(member.status).toBe(201);
    ids.member = member.body.id;
    const sent = await api(a, 'POST', '/v1/send', { channel: 'whatsapp', to: '+14155550123', message: stored.sent });
    expect(sent.status).toBe(200);
    ids.message = sent.body.message_id;
    channel = (await api(a, 'GET', '/api/v1/channels')).body.data[0];
    ids.channel = channel.id;
    // A customer writes to A's number: a conversation, an inbound message and a webhook delivery for A.
    const inbound = await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: '+14155550999', to: channel.phone_number, text: stored.inbound } });
    expect({ status: inbound.status, text: inbound.text }).toEqual({ status: 200, text: expect.any(String) });
    ids.conversation = await pollUntil(async () => (await api(a, 'GET', '/api/v1/conversations')).body.data?.[0]?.id, { timeoutMs: 30_000, description: 'A’s conversation' });
    ids.delivery = await pollUntil(async () => (await api(a, 'GET', `/api/v1/webhooks/${ids.webhook}/deliveries`)).body.data?.[0]?.id, {
      timeoutMs: 30_000,
      description: 'a delivery to A’s webhook',
    });
    // A person answers in A's inbox (CONTRACT §12): a reply to the customer (it hands the conversation off) and a note.
    const reply = await api(a, 'POST', `/api/v1/conversations/${ids.conversation}/messages`, { message: stored.reply });
    expect(reply.status).toBe(201);
    expect((await api(a, 'POST', `/api/v1/conversations/${ids.conversation}/notes`, { text: stored.note })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  /** What A can read of its own resources that B could change (statuses and replies move on by themselves). */
  const snapshotOfA = async () => {
    const get = async (path: string) => {
      const res = await api(a, 'GET', path);
      return { status: res.status, body: res.body };
    };
    const pick = (record: Record<string, unknown> | undefined, keys: string[]) => Object.fromEntries(keys.map((k) => [k, record?.[k]]));
    return {
      agent: await get('/api/v1/agents/shop'),
      webhook: await get(`/api/v1/webhooks/${ids.webhook}`),
      secret: await get(`/api/v1/webhooks/${ids.webhook}/secret`),
      keys: (await get('/api/v1/api-keys')).body.data.map((k: Record<string, unknown>) => pick(k, ['id', 'name'])),
      team: (await get('/api/v1/team')).body.data.map((m: Record<string, unknown>) => pick(m, ['id', 'name', 'role', 'status'])),
      channels: (await get('/api/v1/channels')).body.data.map((c: Record<string, unknown>) => pick(c, ['id', 'provider', 'phone_number', 'phone_number_id', 'agent', 'is_default'])),
      message: pick((await get(`/api/v1/messages/${ids.message}`)).body, ['message_id', 'to', 'message', 'direction']),
      // The agent's replies come by themselves; a person's replies, the notes, state and assignee only by a request.
      conversation: await get(`/api/v1/conversations/${ids.conversation}`).then(({ status, body }) => ({
        status,
        ...pick(body, ['state', 'assignee', 'notes']),
        replies: body.messages?.filter((m: { role: string }) => m.role === 'member'),
      })),
    };
  };

  it('answers tenant B on every tenant route with A’s ids as if they did not exist, leaks nothing of A and changes nothing', async () => {
    const doc = (await http<Record<string, unknown>>('GET', `${platform.gateway}/openapi.json`)).body;
    const routes = routesFromOpenApi(doc).filter(
      (r: { template: string; streaming: boolean }) => /^\/(api\/)?v1\//.test(r.template) && !r.streaming && r.template !== '/api/v1/accounts',
    ) as { method: string; template: string }[];
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshotOfA();

    const pathOf = (template: string) => {
      const resource = template.split('/')[template.startsWith('/api/') ? 3 : 2];
      return template.replace(/\{([A-Za-z_]+)\}/g, (_, param: string) => {
        if (param === 'agent_name') return 'shop';
        if (param === 'version') return '1';
        if (param === 'channel_id') return ids.channel;
        if (param === 'message_id') return ids.message;
        if (param === 'delivery_id') return ids.delivery;
        const byResource: Record<string, string> = { webhooks: ids.webhook, 'api-keys': ids.key, team: ids.member, conversations: ids.conversation, leads: unknownId('led'), appointments: unknownId('apt') };
        return byResource[resource] ?? unknownId('xxx');
      });
    };
    // Valid bodies, so B gets past validation to the ownership check, aimed at A's things where a body can name them.
    const bodies: Record<string, unknown> = {
      'POST /api/v1/agents/{agent_name}/test': { message: 'hello' },
      'POST /api/v1/agents/{agent_name}/documents': { title: 'B’s notes', text: 'Planted in A’s agent.' },
      'POST /api/v1/api-keys': { name: 'b key' },
      'PATCH /api/v1/team/{id}': { role: 'owner' },
      'PATCH /api/v1/channels/{channel_id}': { is_default: true },
      'PATCH /api/v1/conversations/{id}': { state: 'closed' },
      'POST /api/v1/conversations/{id}/messages': { message: 'B writes to A’s customer' },
      'POST /api/v1/conversations/{id}/notes': { text: 'B’s note in A’s inbox' },
      'POST /api/v1/conversations/{id}/messages/{message_id}/feedback': { verdict: 'wrong' },
      'POST /api/v1/agents/{agent_name}/gaps/{id}/answer': { answer: 'B’s answer in A’s agent' },
      'POST /api/v1/agents/{agent_name}/tests': { message: 'B’s test in A’s agent', expect: { no_answer: true } },
      'POST /api/v1/channels/whatsapp': { provider: 'sandbox', phone_number: channel.phone_number },
      'POST /api/v1/channels/whatsapp/embedded-signup': { code: 'hijack', waba_id: channel.waba_id ?? '1022901293403', phone_number_id: channel.phone_number_id },
      'POST /api/v1/playground/inbound': { from: '+14155550998', to: channel.phone_number, text: 'injected into A' },
      'POST /api/v1/webhooks': { url: 'http://127.0.0.1:9/b' },
      'PATCH /api/v1/webhooks/{id}': { description: 'taken over' },
      'POST /api/v1/webhooks/{id}/replay': { since: new Date(Date.now() - 3_600_000).toISOString() },
      'POST /v1/send': { channel: 'whatsapp', to: '+14155550124', message: 'as A', from: channel.phone_number },
      'PUT /api/v1/agents/{agent_name}': { name: 'shop', instruction: 'B’s own', greeting: '', skills: [] },
    };
    // B's own agent of the same name is B's business: it goes last, after the routes that must not find one.
    const ordered = [...routes.filter((r) => r.method !== 'PUT'), ...routes.filter((r) => r.method === 'PUT')];
    const secretsOfA = [a.tenantId, a.apiKey, ids.agent, ids.webhook, ids.webhookSecret, ids.key, ids.message, ids.conversation, ids.delivery, ...Object.values(stored)];

    const outcomes: string[] = [];
    for (const route of ordered) {
      const key = `${route.method} ${route.template}`;
      const path = pathOf(route.template);
      const res = await api(b, route.method, path, ['POST', 'PUT', 'PATCH'].includes(route.method) ? (bodies[key] ?? {}) : undefined);
      // An id B sent itself may be echoed in the 404 ("Webhook "whk_…" was not found"): that tells B nothing new.
      const leaked = secretsOfA.filter((s) => !path.includes(s) && res.text.includes(s));
      const namesA = route.template.includes('{') && !key.startsWith('PUT /api/v1/agents/');
      const verdict =
        res.status >= 500 ? `server error ${res.status}` : leaked.length ? `leaks ${leaked.length} value(s) of A` : namesA && res.status !== 404 ? `answered ${res.status}, not 404` : null;
      // Sending from A's number or playing a customer of A's number must be refused; connecting a number is fine
      // as long as B does not end up with A's.
      const claimsA = res.text.includes(channel.phone_number) || res.text.includes(channel.phone_number_id);
      const usesA = ['POST /v1/send', 'POST /api/v1/playground/inbound'].includes(key) || claimsA;
      if (!namesA && res.status < 300 && usesA && ['POST /api/v1/channels/whatsapp', 'POST /api/v1/channels/whatsapp/embedded-signup', 'POST /api/v1/playground/inbound', 'POST /v1/send'].includes(key)) {
        outcomes.push(`${key}: accepted (${res.status}) a body naming A’s number: ${res.text.slice(0, 200)}`);
      } else if (verdict) outcomes.push(`${key} → ${path}: ${verdict}: ${res.text.slice(0, 200)}`);
    }
    expect(outcomes).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
  }, 120_000);

  it('keeps SQL-injection-shaped text in every stored text field and reads it back unchanged', async () => {
    const agent = await api(a, 'GET', '/api/v1/agents/shop');
    expect(agent.body).toMatchObject({ instruction: stored.instruction, greeting: stored.greeting, faqs: [{ question: stored.question, answer: stored.answer }] });
    expect((await api(a, 'GET', `/api/v1/webhooks/${ids.webhook}`)).body.description).toBe(stored.patchedDescription);
    expect((await api(a, 'GET', '/api/v1/api-keys')).body.data.find((k: { id: string }) => k.id === ids.key)?.name).toBe(stored.keyName);
    const team = (await api(a, 'GET', '/api/v1/team')).body.data as { id: string; name: string; role: string }[];
    expect(team.find((m) => m.id === ids.member)?.name).toBe(stored.memberName);
    expect(team.find((m) => m.role === 'owner')?.name).toBe(stored.ownerName);
    expect((await api(a, 'GET', `/api/v1/messages/${ids.message}`)).body.message).toBe(stored.sent);
    const inbound = await api(a, 'GET', '/api/v1/messages?direction=inbound');
    expect(inbound.body.data.map((m: { message: string }) => m.message)).toContain(stored.inbound);
    const conversation = (await api(a, 'GET', `/api/v1/conversations/${ids.conversation}`)).body;
    expect(conversation.messages.filter((m: { role: string }) => m.role === 'member').map((m: { text: string }) => m.text)).toEqual([stored.reply]);
    expect(conversation.notes.map((n: { text: string }) => n.text)).toEqual([stored.note]);
    // A canned reply's text (CONTRACT §18), created and changed SQL-shaped, is what the inbox will insert.
    const cannedText = { created: sql(4, 'canned reply'), changed: sql(5, 'canned reply') };
    const canned = await api(a, 'POST', '/api/v1/canned-replies', { shortcut: 'sql-shaped', text: cannedText.created });
    expect({ status: canned.status, text: canned.body.text }).toEqual({ status: 201, text: cannedText.created });
    expect((await api(a, 'GET', `/api/v1/canned-replies/${canned.body.id}`)).body.text).toBe(cannedText.created);
    expect((await api(a, 'PATCH', `/api/v1/canned-replies/${canned.body.id}`, { text: cannedText.changed })).status).toBe(200);
    expect((await api(a, 'GET', `/api/v1/canned-replies/${canned.body.id}`)).body.text).toBe(cannedText.changed);
    // A reply marked wrong with a note, its question a knowledge gap, and the owner's answer to it (CONTRACT §19).
    const agentReply = (conversation.messages as { message_id: string; author: { type: string } }[]).find((m) => m.author.type === 'agent');
    if (!agentReply) throw new Error(`A's agent did not answer: ${JSON.stringify(conversation.messages)}`);
    const feedbackNote = sql(6, 'feedback note');
    const verdict = await api(a, 'POST', `/api/v1/conversations/${ids.conversation}/messages/${agentReply.message_id}/feedback`, { verdict: 'wrong', note: feedbackNote });
    expect({ status: verdict.status, note: verdict.body.note }).toEqual({ status: 200, note: feedbackNote });
    const gap = (await api(a, 'GET', '/api/v1/agents/shop/gaps')).body.data.find((g: { id: string }) => g.id === verdict.body.gap_id);
    expect(gap).toMatchObject({ question: stored.inbound });
    const gapAnswer = sql(7, 'gap answer');
    expect((await api(a, 'POST', `/api/v1/agents/shop/gaps/${gap.id}/answer`, { answer: gapAnswer })).body).toMatchObject({ state: 'closed', answer: gapAnswer });
    expect((await api(a, 'GET', '/api/v1/agents/shop')).body.faqs).toContainEqual({ question: stored.inbound, answer: gapAnswer });
    // A test case of A's agent (CONTRACT §19): its message and expected text are stored and run as sent.
    const testCase = { message: sql(8, 'test message'), expect: { contains: sql(9, 'test contains') } };
    const created = await api(a, 'POST', '/api/v1/agents/shop/tests', testCase);
    expect({ status: created.status, message: created.body.message, expect: created.body.expect }).toEqual({ status: 201, ...testCase });
    expect((await api(a, 'GET', '/api/v1/agents/shop/tests')).body.data.find((t: { id: string }) => t.id === created.body.id)).toMatchObject(testCase);
    // A team (CONTRACT §18), named and with a closed message SQL-shaped, created and changed; routing rules' words too.
    const teamText = { name: sql(10, 'team name'), closed: sql(11, 'closed message'), renamed: sql(12, 'team name'), reclosed: sql(13, 'closed message') };
    const aTeam = await api(a, 'POST', '/api/v1/teams', { name: teamText.name, members: [ids.member], routing: 'round_robin', timezone: 'UTC', business_hours: {}, closed_message: teamText.closed });
    expect({ status: aTeam.status, name: aTeam.body.name, closed: aTeam.body.closed_message }).toEqual({ status: 201, name: teamText.name, closed: teamText.closed });
    expect((await api(a, 'PATCH', `/api/v1/teams/${aTeam.body.id}`, { name: teamText.renamed, closed_message: teamText.reclosed })).status).toBe(200);
    expect((await api(a, 'GET', `/api/v1/teams/${aTeam.body.id}`)).body).toMatchObject({ name: teamText.renamed, closed_message: teamText.reclosed });
    const match = { keyword: sql(14, 'keyword'), skill: sql(15, 'skill'), contact_tag: sql(16, 'tag') };
    expect((await api(a, 'POST', '/api/v1/routing-rules', [{ match, team_id: aTeam.body.id }])).status).toBe(200);
    expect((await api(a, 'GET', '/api/v1/routing-rules')).body.data).toEqual([{ match, team_id: aTeam.body.id }]);
    // The same strings in list filters and path parameters are just values too: never a 5xx.
    for (const path of [`/api/v1/messages?to=${encodeURIComponent(SQL[1])}`, `/api/v1/agents/${encodeURIComponent(SQL[0])}`, `/api/v1/webhooks/${encodeURIComponent(SQL[6])}`]) {
      expect({ path, status: (await api(a, 'GET', path)).status }).toEqual({ path, status: expect.any(Number) });
      expect({ path, serverError: (await api(a, 'GET', path)).status >= 500 }).toEqual({ path, serverError: false });
    }
    // Every free-text body field of the API is either read back above or never readable: a new one fails here.
    const doc = (await http<Record<string, unknown>>('GET', `${platform.gateway}/openapi.json`)).body;
    const unexplained = freeTextFields(doc).filter((field) => !READ_BACK.includes(field) && !NOT_YET_READ_BACK.includes(field) && !NOT_READABLE.some((pattern) => pattern.test(field)));
    expect(unexplained).toEqual([]);
    expect(READ_BACK.filter((field) => !freeTextFields(doc).includes(field))).toEqual([]);
  }, 60_000);

  it('keeps SQL-shaped text in the CRM, campaign and wallet fields and reads it back unchanged', async () => {
    const company = await api(a, 'POST', '/api/v1/companies', { name: SQL[2] });
    expect(company.status).toBe(201);
    const patchedCompany = await api(a, 'PATCH', `/api/v1/companies/${company.body.id}`, { name: SQL[3] });
    expect(patchedCompany.status).toBe(200);
    expect((await api(a, 'GET', `/api/v1/companies/${company.body.id}`)).body.name).toBe(SQL[3]);

    const contact = await api(a, 'POST', '/api/v1/contacts', { phone: '+14155550777', name: SQL[4], tags: [SQL[1]], company_id: company.body.id });
    expect(contact.status).toBe(201);
    expect((await api(a, 'GET', `/api/v1/contacts/${contact.body.id}`)).body).toMatchObject({ name: SQL[4], tags: [SQL[1]] });
    expect((await api(a, 'PATCH', `/api/v1/contacts/${contact.body.id}`, { name: SQL[8], tags: [SQL[0]] })).status).toBe(200);
    expect((await api(a, 'GET', `/api/v1/contacts/${contact.body.id}`)).body).toMatchObject({ name: SQL[8], tags: [SQL[0]] });
    expect((await api(a, 'POST', `/api/v1/contacts/${contact.body.id}/activities`, { type: 'note', text: SQL[5] })).status).toBe(201);
    const timeline = (await api(a, 'GET', `/api/v1/contacts/${contact.body.id}/activities`)).body.data as { type: string; text?: string }[];
    expect(timeline).toContainEqual(expect.objectContaining({ type: 'note', text: SQL[5] }));

    const stages = [SQL[1], SQL[7]];
    const pipeline = await api(a, 'POST', '/api/v1/pipelines', { name: SQL[6], stages });
    expect(pipeline.status).toBe(201);
    expect(pipeline.body).toMatchObject({ name: SQL[6] });
    expect(JSON.stringify(pipeline.body.stages)).toContain(JSON.stringify(SQL[7]));
    const deal = await api(a, 'POST', '/api/v1/deals', { title: SQL[5], contact_id: contact.body.id, pipeline_id: pipeline.body.id, stage: SQL[1], value: { amount: '10.00', currency: 'EUR' } });
    expect([deal.status, deal.text]).toEqual([201, expect.any(String)]);
    expect((await api(a, 'PATCH', `/api/v1/deals/${deal.body.id}`, { title: SQL[2], stage: SQL[7] })).status).toBe(200);
    expect((await api(a, 'GET', `/api/v1/deals/${deal.body.id}`)).body).toMatchObject({ title: SQL[2], stage: SQL[7] });

    const campaign = await api(a, 'POST', '/api/v1/campaigns', { name: SQL[0], template: { name: 'hello_world', language: 'en_US' }, audience: { tags: [SQL[1]] } });
    expect(campaign.status).toBe(201);
    expect((await api(a, 'GET', `/api/v1/campaigns/${campaign.body.id}`)).body).toMatchObject({ name: SQL[0], audience: { tags: [SQL[1]] } });

    const reference = `ref ${SQL[6]}`;
    const adjustment = await http('POST', `${platform.gateway}/admin/v1/tenants/${a.tenantId}/wallet/adjustments`, { token: env.ADMIN_TOKEN, json: { amount: '5', reference, description: SQL[3] } });
    expect(adjustment.status).toBe(201);
    const transactions = (await api(a, 'GET', '/api/v1/billing/transactions')).body.data as { cause_id: string; description: string }[];
    expect(transactions).toContainEqual(expect.objectContaining({ cause_id: reference, description: SQL[3] }));

    // The tenant's own LLM (its model name is free text); removed again so A's agent keeps the stack's LLM.
    const llm = await api(a, 'PUT', '/api/v1/settings/llm', { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-attacker-1234', model: SQL[2], monthly_budget: '5' });
    expect([llm.status, llm.text]).toEqual([200, expect.any(String)]);
    expect((await api(a, 'GET', '/api/v1/settings/llm')).body).toMatchObject({ model: SQL[2] });
    expect((await api(a, 'DELETE', '/api/v1/settings/llm')).status).toBe(204);
  }, 60_000);

  it('answers every list given a cursor it did not hand out (garbage, edited, another list’s or tenant’s) with 400 naming cursor, and pages with its own', async () => {
    // Two of what most lists show, so that each hands out a next_cursor at limit=1.
    for (const greeting of ['first', 'second']) {
      expect((await api(a, 'PUT', '/api/v1/agents/pager', { name: 'pager', instruction: 'Pages.', greeting, skills: [] })).status).toBeLessThan(300);
    }
    expect((await api(a, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/second', enabled: false })).status).toBe(201);
    const inbound = await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: '+14155550998', to: channel.phone_number, text: 'a second customer' } });
    expect(inbound.status).toBe(200);
    await pollUntil(async () => (await api(a, 'GET', '/api/v1/conversations')).body.data?.length >= 2, { timeoutMs: 30_000, description: 'A’s second conversation' });

    const doc = (await http<Record<string, unknown>>('GET', `${platform.gateway}/openapi.json`)).body;
    const lists = (routesFromOpenApi(doc) as { method: string; template: string; query: { name: string }[] }[])
      .filter((r) => r.method === 'GET' && r.query.some((q) => q.name === 'cursor'))
      .map((r) => r.template);
    // Lists under one resource need that resource's id: only the two this test has are paged; a new one must be named here.
    const PAGED_UNDER_AN_ID = ['/api/v1/agents/{agent_name}/versions', '/api/v1/agents/{agent_name}/documents', '/api/v1/agents/{agent_name}/gaps', '/api/v1/agents/{agent_name}/tests', '/api/v1/webhooks/{id}/deliveries'];
    // (their cursors are tested in their services' specs: crm-service's activities spec refuses another list's cursor)
    expect(lists.filter((t) => t.includes('{') && !PAGED_UNDER_AN_ID.includes(t)).sort()).toEqual(['/api/v1/campaigns/{id}/recipients', '/api/v1/contacts/{id}/activities']);
    lists.splice(0, lists.length, ...lists.filter((t) => !t.includes('{') || PAGED_UNDER_AN_ID.includes(t)));
    expect(lists).toEqual(expect.arrayContaining(['/api/v1/agents', '/api/v1/agents/{agent_name}/versions', '/api/v1/api-keys', '/api/v1/webhooks']));
    expect(lists).toEqual(expect.arrayContaining(['/api/v1/webhooks/{id}/deliveries', '/api/v1/messages', '/api/v1/channels', '/api/v1/conversations', '/api/v1/leads', '/api/v1/appointments']));
    const pathOf = (template: string) => template.replace('{agent_name}', 'pager').replace('{id}', ids.webhook);
    const page = (tenant: Tenant, template: string, query: string) => api(tenant, 'GET', `${pathOf(template)}?${query}`);
    const idOf = (item: { id?: string; message_id?: string; version?: number }) => String(item.id ?? item.message_id ?? item.version);

    // Each list walked one item at a time with its own cursors: every item once, in the order of one big page.
    const cursorOf: Record<string, string> = {};
    const outcomes: string[] = [];
    for (const template of lists) {
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await page(a, template, `limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        if (res.status !== 200) outcomes.push(`${template}: its own cursor answered ${res.status}: ${res.text.slice(0, 200)}`);
        walked.push(...(res.body.data ?? []).map(idOf));
        cursor = res.status === 200 ? res.body.next_cursor : null;
        if (cursor) cursorOf[template] ??= cursor;
      } while (cursor && walked.length < 100);
      const all: string[] = (await page(a, template, 'limit=100')).body.data.map(idOf);
      // Messages and deliveries keep coming (replies, statuses): only newer ones, above what was walked.
      const settled = ['/api/v1/messages', '/api/v1/webhooks/{id}/deliveries'].includes(template) ? all.filter((id) => walked.includes(id)) : all;
      if (JSON.stringify(walked) !== JSON.stringify(settled)) outcomes.push(`${template}: paged ${JSON.stringify(walked)}, one page ${JSON.stringify(all)}`);
    }
    const paged = Object.keys(cursorOf);
    expect(paged).toEqual(expect.arrayContaining(['/api/v1/agents', '/api/v1/agents/{agent_name}/versions', '/api/v1/api-keys', '/api/v1/webhooks']));
    expect(paged).toEqual(expect.arrayContaining(['/api/v1/webhooks/{id}/deliveries', '/api/v1/messages', '/api/v1/conversations']));

    const refusesCursor = (res: HttpResponse<any>) =>
      res.status === 400 &&
      res.headers.get('content-type')?.startsWith('application/problem+json') &&
      res.body.errors?.length === 1 &&
      res.body.errors[0].field === 'cursor' &&
      typeof res.body.errors[0].message === 'string';
    const edited = (cursor: string) => `${cursor.slice(0, -2)}${cursor.slice(-2) === 'AA' ? 'BB' : 'AA'}`;
    for (const template of lists) {
      const own = cursorOf[template] ?? cursorOf['/api/v1/agents'];
      const other = paged.find((t) => t !== template)!;
      const wrong: Record<string, [Tenant, string]> = {
        garbage: [a, 'not-a-cursor'],
        'a bare id': [a, ids.message],
        'base64url of an id': [a, Buffer.from(ids.key).toString('base64url')],
        edited: [a, edited(own)],
        [`the cursor of ${other}`]: [a, cursorOf[other]],
      };
      if (!template.includes('{') && cursorOf[template]) wrong['another tenant’s cursor of this list'] = [b, cursorOf[template]];
      for (const [what, [tenant, cursor]] of Object.entries(wrong)) {
        const res = await page(tenant, template, `cursor=${encodeURIComponent(cursor)}`);
        if (!refusesCursor(res)) outcomes.push(`${template} with ${what}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(outcomes).toEqual([]);
  }, 120_000);
});

/** The free-text fields the test above stores SQL-shaped text in and reads back. */
const READ_BACK = [
  'PUT /api/v1/agents/{agent_name} instruction',
  'PUT /api/v1/agents/{agent_name} greeting',
  'PUT /api/v1/agents/{agent_name} faqs[].question',
  'PUT /api/v1/agents/{agent_name} faqs[].answer',
  'POST /api/v1/webhooks description',
  'PATCH /api/v1/webhooks/{id} description',
  'POST /api/v1/api-keys name',
  'POST /api/v1/team name',
  'POST /api/v1/accounts owner_name',
  'POST /v1/send message',
  'POST /api/v1/conversations/{id}/messages message',
  'POST /api/v1/conversations/{id}/notes text',
  'POST /api/v1/companies name',
  'PATCH /api/v1/companies/{id} name',
  'POST /api/v1/contacts name',
  'POST /api/v1/contacts tags[]',
  'PATCH /api/v1/contacts/{id} name',
  'PATCH /api/v1/contacts/{id} tags[]',
  'POST /api/v1/pipelines name',
  'POST /api/v1/pipelines stages[]',
  'POST /api/v1/deals title',
  'POST /api/v1/deals stage',
  'PATCH /api/v1/deals/{id} title',
  'PATCH /api/v1/deals/{id} stage',
  'POST /api/v1/campaigns name',
  'POST /api/v1/campaigns audience.tags[]',
  'POST /admin/v1/tenants/{tenant_id}/wallet/adjustments reference',
  'POST /admin/v1/tenants/{tenant_id}/wallet/adjustments description',
  'POST /api/v1/contacts/{id}/activities text',
  'PUT /api/v1/settings/llm model',
  'POST /api/v1/canned-replies text',
  'PATCH /api/v1/canned-replies/{id} text',
  'POST /api/v1/conversations/{id}/messages/{message_id}/feedback note',
  'POST /api/v1/agents/{agent_name}/gaps/{id}/answer answer',
  'POST /api/v1/agents/{agent_name}/tests message',
  'POST /api/v1/agents/{agent_name}/tests expect.contains',
  'POST /api/v1/teams name',
  'POST /api/v1/teams closed_message',
  'PATCH /api/v1/teams/{id} name',
  'PATCH /api/v1/teams/{id} closed_message',
  'POST /api/v1/routing-rules [].match.skill',
  'POST /api/v1/routing-rules [].match.keyword',
  'POST /api/v1/routing-rules [].match.contact_tag',
];
/**
 * Fields inside oneOf request bodies (agent documents, the rich and email shapes of /v1/send), visible to this walk since
 * 2026-11-28 and not yet stored SQL-shaped and read back here. Listed so that any other new field still fails.
 */
const NOT_YET_READ_BACK = [
  'POST /api/v1/agents/{agent_name}/documents title',
  'POST /api/v1/agents/{agent_name}/documents text',
  'POST /v1/send subject',
  'POST /v1/send html',
  'POST /v1/send caption',
  'POST /v1/send location.name',
  'POST /v1/send location.address',
  'POST /v1/send interactive.body',
  'POST /v1/send interactive.buttons[].id',
  'POST /v1/send interactive.buttons[].title',
  'POST /v1/send interactive.button',
  'POST /v1/send interactive.sections[].title',
  // kept in the voice channel's encrypted settings; the channel record does not show greeting, language or forward_to yet
  'POST /api/v1/channels/voice greeting',
];
/** Free-text fields no route reads back (secrets, lookups, one-off inputs), or checked elsewhere by their own rule. */
const NOT_READABLE = [
  / tenant_id$/, // checked against the credential, then dropped (403 when it differs)
  /^POST \/api\/v1\/accounts name$/, // no route reads the account back
  /^POST \/api\/v1\/accounts password$/, // hashed (scrypt), never stored as sent
  /^POST \/api\/v1\/team\/accept (token|password)$/, // a link token (looked up by its hash) and a password (hashed)
  /^POST \/auth\/(login|password-reset|password-reset\/confirm) (email|password|token)$/, // sign-in credentials and link tokens
  /^POST \/oauth\/token (client_id|client_secret|scope)$/, // credentials: looked up, never stored as sent
  /^POST \/api\/v1\/channels\/whatsapp access_token$/, // stored encrypted, never returned (CONTRACT §6)
  /^POST \/api\/v1\/channels\/(sms|voice) auth_token$/, // stored encrypted, never returned (like a WhatsApp token)
  /^POST \/api\/v1\/campaigns\/audience-count audience\.tags\[\]$/, // a count: nothing is stored
  /^POST \/api\/v1\/channels\/whatsapp\/embedded-signup code$/, // exchanged with Meta, not stored
  /^POST \/api\/v1\/agents\/\{agent_name\}\/test message$/, // no side effects (CONTRACT §3)
  /^PUT \/api\/v1\/agents\/\{agent_name\} booking\.timezone$/, // an IANA zone, validated
  /^(POST \/api\/v1\/teams|PATCH \/api\/v1\/teams\/\{id\}) timezone$/, // an IANA zone, validated
  /^POST \/v1\/send to$/, // E.164 or a WhatsApp id, validated
  /^POST \/api\/v1\/playground\/inbound (to|text|caption|media\.base64)$/, // the playground's customer message (the inbound text above takes the same path)
  /^PUT \/api\/v1\/settings\/llm api_key$/, // stored encrypted, shown only as its last four
];

/** `METHOD path field` of every plain string in a request body (no enum, format or pattern: where free text goes). */
function freeTextFields(doc: any): string[] {
  const resolve = (node: any) => {
    let current = node;
    for (let i = 0; current?.$ref && i < 20; i++) current = current.$ref.replace(/^#\//, '').split('/').reduce((n: any, k: string) => n?.[k], doc);
    return current ?? {};
  };
  const out: string[] = [];
  const walk = (schemaOrRef: any, path: string, prefix: string, depth = 0) => {
    const schema = resolve(schemaOrRef);
    if (depth > 6) return;
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    if (type === 'string' && !schema.enum && !schema.format && !schema.pattern) out.push(`${prefix} ${path}`);
    if (type === 'array') walk(schema.items, `${path}[]`, prefix, depth + 1);
    for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, path ? `${path}.${k}` : k, prefix, depth + 1);
    for (const alternative of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) walk(alternative, path, prefix, depth + 1);
  };
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const method of ['post', 'put', 'patch']) {
      const content = resolve(item[method]?.requestBody).content ?? {};
      const schema = content['application/json']?.schema;
      if (schema) walk(schema, '', `${method.toUpperCase()} ${template}`);
    }
  }
  return out;
}
