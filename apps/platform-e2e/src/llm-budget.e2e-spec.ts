import { FakeLlmServer, pollUntil } from '@parley/testing';
import { join } from 'node:path';
import { Client } from 'pg';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT, readEnvFile } from '../../../tools/dev/lib/stack.cjs';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';

// A tenant's own LLM and its monthly budget on the built stack (CONTRACT §16, issue 23 item 7), with two OpenAI-compatible
// stand-ins: the global LLM (LLM_BASE_URL) and tenant A's own. A's customers are answered by A's server with A's model
// and key, B's by the global one; A's tokens reach billing (llm.usage), are priced by the price book, and once the
// month's spend (llm.spend back to responder-service) reaches A's budget, A's customers get the skills engine's reply
// and neither LLM is asked again.

const GLOBAL_KEY = 'sk-global-e2e-1111';
const TENANT_KEY = 'sk-tenant-a-e2e-2222';
const GLOBAL_ANSWER = 'Answered by the global model.';
const TENANT_ANSWER = 'Answered by the tenant’s own model.';
/** The skills engine's reply to a greeting for an agent without skills (engine-phrases.ts). */
const WITHOUT_LLM = (agent: string) => `Thanks for your message! You're chatting with ${agent}. We have received it and will get back to you.`;

interface SandboxMessage {
  type: string;
  text?: { body: string };
}

describe('Per-tenant LLM and monthly budget', () => {
  let platform: Platform;
  let globalLlm: FakeLlmServer;
  let tenantLlm: FakeLlmServer;
  const env = readEnvFile(join(ROOT, '.env.example'));

  beforeAll(async () => {
    globalLlm = await FakeLlmServer.start({ apiKey: GLOBAL_KEY });
    tenantLlm = await FakeLlmServer.start({ apiKey: TENANT_KEY });
    globalLlm.respond(() => ({ content: GLOBAL_ANSWER }));
    tenantLlm.respond(() => ({ content: TENANT_ANSWER }));
    platform = await startPlatform({ LLM_BASE_URL: globalLlm.baseUrl, LLM_API_KEY: GLOBAL_KEY, LLM_MODEL: 'global-model', LLM_TIMEOUT_MS: '10000' });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await globalLlm?.close();
    await tenantLlm?.close();
  }, 60_000);

  /** A tenant whose sandbox number is answered by an agent without skills (so every reply is the LLM's, or the engine's phrase). */
  async function tenant(name: string): Promise<{ tenantId: string; token: string; number: string }> {
    const account = await http<{ tenant_id: string; api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name } });
    expect(account.status).toBe(201);
    const token = account.body.api_key;
    const agent = await http('PUT', `${platform.gateway}/api/v1/agents/front-desk`, { token, json: { name: 'front-desk', instruction: `You answer for ${name}.`, greeting: '', skills: [], faqs: [] } });
    expect(agent.status).toBe(201);
    const channels = await http<{ data: { id: string; phone_number: string }[] }>('GET', `${platform.gateway}/api/v1/channels`, { token });
    const channel = channels.body.data[0];
    expect((await http('PATCH', `${platform.gateway}/api/v1/channels/${channel.id}`, { token, json: { agent: 'front-desk' } })).status).toBe(200);
    return { tenantId: account.body.tenant_id, token, number: channel.phone_number };
  }

  /** The customer writes to the tenant's number (the Playground's route); answers the agent's reply as the customer's phone got it. */
  async function say(t: { token: string; number: string }, customer: string, text: string): Promise<string> {
    const before = (await sandboxTexts(customer)).length;
    const sent = await http('POST', `${platform.gateway}/api/v1/playground/inbound`, { token: t.token, json: { from: customer, to: t.number, text } });
    expect(sent.status).toBeLessThan(300);
    const texts = await pollUntil(
      async () => {
        const got = await sandboxTexts(customer);
        return got.length > before && got;
      },
      { description: `the reply to "${text}" at the sandbox`, timeoutMs: 30_000, intervalMs: 200 },
    );
    return texts[texts.length - 1];
  }

  async function sandboxTexts(customer: string): Promise<string[]> {
    const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
    return res.body.data.filter((m) => m.type === 'text').map((m) => m.text?.body ?? '');
  }

  it('answers a tenant with its own LLM and key, another with the global one, and the first without any LLM once its budget is spent', async () => {
    // 0.001 USD a token on every plan: one reply's tokens cost more than A's budget of 0.01.
    const prices = ['free', 'pro', 'enterprise'].map((plan) => ({ plan, category: 'llm_token', unit_price: '0.001', currency: 'USD' }));
    expect((await http('PUT', `${platform.gateway}/admin/v1/prices`, { token: env.ADMIN_TOKEN, json: { prices } })).status).toBe(200);
    const [a, b] = [await tenant('Alder Books'), await tenant('Birch Cafe')];
    const settings = await http<{ api_key_last4: string }>('PUT', `${platform.gateway}/api/v1/settings/llm`, {
      token: a.token,
      json: { base_url: tenantLlm.baseUrl, api_key: TENANT_KEY, model: 'tenant-a-model', monthly_budget: '0.01' },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.api_key_last4).toBe('2222');

    // A: its own server, asked with its model and its key; B: the global one.
    expect(await say(a, '+14155550101', 'hello there')).toBe(TENANT_ANSWER);
    expect(tenantLlm.requests.map((r) => r.model)).toEqual(['tenant-a-model']);
    expect(tenantLlm.authorizations).toEqual([`Bearer ${TENANT_KEY}`]);
    expect(await say(b, '+14155550102', 'hello there')).toBe(GLOBAL_ANSWER);
    expect(globalLlm.requests.map((r) => r.model)).toEqual(['global-model']);
    expect(globalLlm.authorizations).toEqual([`Bearer ${GLOBAL_KEY}`]);
    expect(tenantLlm.requests).toHaveLength(1);

    // Billing metered A's tokens as the server counted them, and priced them past A's budget; responder-service hears it.
    const tokens = tenantLlm.usages[0].total_tokens;
    expect(tokens * 0.001).toBeGreaterThanOrEqual(0.01);
    await pollUntil(
      async () => {
        const usage = await http<{ data: { category: string; quantity: number }[] }>('GET', `${platform.gateway}/api/v1/billing/usage?days=1`, { token: a.token });
        return usage.body.data.some((u) => u.category === 'llm_token' && u.quantity === tokens);
      },
      { description: "A's tokens metered", timeoutMs: 20_000, intervalMs: 200 },
    );
    const db = new Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      await pollUntil(
        async () => {
          const { rows } = await db.query(`SELECT spend::text AS spend FROM responder.llm_spend WHERE tenant_id = $1`, [a.tenantId]);
          return rows[0]?.spend === (tokens * 0.001).toFixed(6);
        },
        { description: "A's spend at responder-service", timeoutMs: 20_000, intervalMs: 200 },
      );
    } finally {
      await db.end();
    }

    // Over budget: the skills engine answers A, and no LLM is asked; B still gets the global LLM.
    expect(await say(a, '+14155550103', 'hello there')).toBe(WITHOUT_LLM('front-desk'));
    expect(tenantLlm.requests).toHaveLength(1);
    expect(globalLlm.requests).toHaveLength(1);
    expect(await say(b, '+14155550104', 'hello again')).toBe(GLOBAL_ANSWER);
    expect(globalLlm.requests).toHaveLength(2);
  });
});
