import { Topics, newId, type LlmSpendData, type LlmUsageEvent, type MessageInboundEvent } from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { FakeLlmServer, expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { LlmSettingsService } from '../llm-settings/llm-settings.service';
import { DeterministicReplyEngine } from '../replies/deterministic-reply-engine';
import { ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const BUSINESS = '+4930000007';
const GLOBAL_KEY = 'sk-global-key-1111';
const TENANT_KEY = 'sk-tenant-a-key-2222';
const GLOBAL_ANSWER = 'Answered by the global model.';
const TENANT_ANSWER = 'Answered by the tenant’s own model.';

/**
 * Per-tenant LLM settings (CONTRACT.md §16) over real Kafka and PostgreSQL, with two OpenAI-compatible stand-ins: the
 * global LLM (LLM_BASE_URL) and tenant A's own. A is answered by its own with its model and key, B by the global one;
 * once billing says A's spend of the month has reached its budget, A is answered by the skills engine and no LLM is
 * called; a settings change takes effect from the next message.
 */
describe('responder-service: per-tenant LLM and budget', () => {
  let globalLlm: FakeLlmServer;
  let tenantLlm: FakeLlmServer;
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let usage: TopicProbe<LlmUsageEvent>;

  beforeAll(async () => {
    globalLlm = await FakeLlmServer.start({ apiKey: GLOBAL_KEY });
    tenantLlm = await FakeLlmServer.start({ apiKey: TENANT_KEY });
    globalLlm.respond(() => ({ content: GLOBAL_ANSWER }));
    tenantLlm.respond(() => ({ content: TENANT_ANSWER }));
    h = await ResponderHarness.start('tenant-llm', { LLM_BASE_URL: globalLlm.baseUrl, LLM_API_KEY: GLOBAL_KEY, LLM_MODEL: 'global-model', LLM_TIMEOUT_MS: '4000' });
    out = await h.probeOutputs();
    usage = await h.kafka.probe<LlmUsageEvent>(Topics.LlmUsage);
  });

  afterAll(async () => {
    await usage?.stop();
    await h?.close();
    await globalLlm?.close();
    await tenantLlm?.close();
  });

  /** Sends one customer message and returns the agent's reply once it has been sent. */
  async function say(tenant: string, customer: string, text: string): Promise<string | null> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    const got = await pollUntil(() => out.received.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    return got.value.data.agent_response;
  }

  const putSettings = (tenant: string, change: Record<string, string> = {}) =>
    h.kafka.rpc.request('llm-settings.put', {
      tenant_id: tenant,
      settings: { base_url: tenantLlm.baseUrl, api_key: TENANT_KEY, model: 'tenant-a-model', monthly_budget: '0.05', ...change },
    });

  /** Publishes `llm.spend` as billing-service would, and waits until the responder holds it. */
  async function billingSays(tenant: string, spend: string): Promise<void> {
    const data: LlmSpendData = { tenant_id: tenant, month: new Date().toISOString().slice(0, 7), spend, currency: 'USD', at: new Date().toISOString() };
    await h.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.LlmSpend, tenant, data), tenant);
    await pollUntil(async () => ((await h.sql.query(`SELECT spend::text AS spend FROM llm_spend WHERE tenant_id = $1`, [tenant])) as { spend: string }[])[0]?.spend === Number(spend).toFixed(6), {
      description: `spend ${spend} of ${tenant} held`,
    });
  }

  it('answers a tenant with its own LLM, another with the global one, and a tenant over its budget without any LLM', async () => {
    const [a, b] = [newId('ten'), newId('ten')];
    const agent = agentRecord('front-desk', { skills: [] });
    await h.announceAgent(a, agent);
    await h.announceAgent(b, agent);
    await putSettings(a);

    // A: its own server, asked with its model and its key.
    expect(await say(a, phoneNumber(), 'hello there')).toBe(`${agent.greeting}\n\n${TENANT_ANSWER}`);
    expect(tenantLlm.requests.map((r) => r.model)).toEqual(['tenant-a-model']);
    expect(tenantLlm.authorizations).toEqual([`Bearer ${TENANT_KEY}`]);
    expect(globalLlm.requests).toEqual([]);
    // Its tokens are reported under its model, for billing to price against its budget, as served by its own key (its
    // provider bills it; billing must not charge its wallet for them).
    const reported = await pollUntil(() => usage.messages.find((m) => m.value.tenant_id === a), { description: "A's llm.usage" });
    expect(reported.value.data).toMatchObject({ model: 'tenant-a-model', total_tokens: tenantLlm.usages[0].total_tokens, key: 'tenant' });
    expectMatchesEventSchema(Topics.LlmUsage, reported.value);

    // B: no settings of its own, the global server.
    expect(await say(b, phoneNumber(), 'hello there')).toBe(`${agent.greeting}\n\n${GLOBAL_ANSWER}`);
    expect(globalLlm.requests.map((r) => r.model)).toEqual(['global-model']);
    expect(globalLlm.authorizations).toEqual([`Bearer ${GLOBAL_KEY}`]);
    expect(tenantLlm.requests).toHaveLength(1);
    // B's tokens were served by the platform's key.
    const reportedB = await pollUntil(() => usage.messages.find((m) => m.value.tenant_id === b), { description: "B's llm.usage" });
    expect(reportedB.value.data).toMatchObject({ model: 'global-model', total_tokens: globalLlm.usages[0].total_tokens, key: 'platform' });

    // A's spend reaches its budget (0.05): the skills engine answers, and neither LLM hears of it.
    await billingSays(a, '0.05');
    const customer = phoneNumber();
    const now = new Date();
    const answer = await say(a, customer, 'hello there');
    const plain = await new DeterministicReplyEngine().reply({
      tenantId: a,
      agent,
      conversationHistory: [],
      firstReply: true,
      message: { text: 'hello there', type: 'text', contactName: null },
      customer,
      state: {},
      now,
      calendar: { busy: () => Promise.resolve(new Set<number>()) },
      documents: [],
    });
    expect(answer).toBe(plain.text);
    expect(answer).not.toContain(TENANT_ANSWER);
    expect(tenantLlm.requests).toHaveLength(1);
    expect(globalLlm.requests).toHaveLength(1);
    // B is not held to A's budget.
    expect(await say(b, phoneNumber(), 'hello again')).toBe(`${agent.greeting}\n\n${GLOBAL_ANSWER}`);
    expect(globalLlm.requests).toHaveLength(2);

    // A raises its budget and changes model: the next message is answered by its LLM again, with the new model.
    await putSettings(a, { monthly_budget: '0.10', model: 'tenant-a-model-2' });
    expect(await say(a, phoneNumber(), 'hello there')).toBe(`${agent.greeting}\n\n${TENANT_ANSWER}`);
    expect(tenantLlm.requests.map((r) => r.model)).toEqual(['tenant-a-model', 'tenant-a-model-2']);

    // Without settings, A is answered by the global LLM, on the platform's key.
    await h.kafka.rpc.request('llm-settings.delete', { tenant_id: a });
    expect(await say(a, phoneNumber(), 'hello there')).toBe(`${agent.greeting}\n\n${GLOBAL_ANSWER}`);
    expect(tenantLlm.requests).toHaveLength(2);
    expect(globalLlm.requests).toHaveLength(3);
    const afterDelete = await pollUntil(
      () => {
        const mine = usage.messages.filter((m) => m.value.tenant_id === a && m.value.data.model === 'global-model');
        return mine.length > 0 && mine;
      },
      { description: "A's llm.usage on the global LLM" },
    );
    expect(afterDelete.map((m) => m.value.data.key)).toEqual(['platform']);
    // Every call A's own LLM answered (both models) was reported on A's key.
    const onOwn = await pollUntil(
      () => {
        const mine = usage.messages.filter((m) => m.value.tenant_id === a && m.value.data.model !== 'global-model');
        return mine.length >= tenantLlm.usages.length && mine;
      },
      { description: "llm.usage of A's own LLM calls" },
    );
    expect(onOwn.map((m) => [m.value.data.model, m.value.data.key])).toEqual([
      ['tenant-a-model', 'tenant'],
      ['tenant-a-model-2', 'tenant'],
    ]);
  });

  it('keeps the highest spend of the month, whatever order totals come in, and starts a new month afresh', async () => {
    const tenant = newId('ten');
    const settings = h.app.get(LlmSettingsService);
    await putSettings(tenant, { monthly_budget: '1' });
    const spendOf = async () => (await h.sql.query(`SELECT month, spend::text AS spend FROM llm_spend WHERE tenant_id = $1`, [tenant])) as { month: string; spend: string }[];
    const total = (month: string, spend: string): LlmSpendData => ({ tenant_id: tenant, month, spend, currency: 'USD', at: new Date().toISOString() });

    await settings.recordSpend(total('2026-10', '0.7'));
    await settings.recordSpend(total('2026-10', '0.2'));
    expect(await spendOf()).toEqual([{ month: '2026-10', spend: '0.700000' }]);
    await settings.recordSpend(total('2026-11', '1.2'));
    await settings.recordSpend(total('2026-10', '0.9'));
    expect(await spendOf()).toEqual([{ month: '2026-11', spend: '1.200000' }]);
    expect(await settings.overBudget(tenant, '2026-11')).toBe(true);
    // Another month's spend does not count against this month's budget.
    expect(await settings.overBudget(tenant, '2026-12')).toBe(false);
  });
});
