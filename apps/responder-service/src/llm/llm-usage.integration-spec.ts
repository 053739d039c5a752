import { Topics, type LlmUsageEvent, type MessageInboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { FakeLlmServer, expectMatchesEventSchema, pollUntil, type FakeLlmRequest, type FakeLlmStep } from '@parley/testing';
import { ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const BUSINESS = '+4930000003';

/** Each LLM call's tokens, as the server counted them, reach billing as one `llm.usage` event (CONTRACT.md §16). */
describe('responder-service: LLM token usage', () => {
  let fake: FakeLlmServer;
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let usage: TopicProbe<LlmUsageEvent>;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    h = await ResponderHarness.start('llm-usage', { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '4000', LLM_MAX_TOOL_ROUNDS: '3' });
    out = await h.probeOutputs();
    usage = await h.kafka.probe<LlmUsageEvent>(Topics.LlmUsage);
  });

  afterAll(async () => {
    await usage?.stop();
    await h?.close();
    await fake?.close();
  });

  it('publishes one llm.usage per completion of a reply (a tool round and the answer), with the tokens the server reported', async () => {
    const tenant = 'ten_llm_usage';
    await h.announceAgent(tenant, agentRecord('shop', { instruction: 'You are the assistant of a cake shop.', skills: ['faq_responder'], faqs: [{ question: 'Do you deliver?', answer: 'Yes, within 10 km.' }] }));
    fake.respond((request: FakeLlmRequest): FakeLlmStep =>
      request.messages[request.messages.length - 1].role === 'tool' ? { content: 'Hello! How can I help?' } : { toolCalls: [{ name: 'search_knowledge', arguments: { query: 'hello' } }] },
    );

    const event: MessageInboundEvent = inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'hello there' });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.find((m) => m.value.data.message_id === event.data.message_id), { description: 'the reply' });

    const events = await pollUntil(() => {
      const mine = usage.messages.filter((m) => m.value.tenant_id === tenant);
      return mine.length >= 2 && mine;
    }, { description: 'two llm.usage events' });
    expect(fake.usages).toHaveLength(2);
    expect(events.map((m) => m.value.data)).toEqual(
      // The global LLM's calls are on the platform's key: billing charges them to the tenant's wallet.
      fake.usages.map((u) => ({ tenant_id: tenant, model: 'fake-model', ...u, key: 'platform', at: expect.any(String) })),
    );
    expect(new Set(events.map((m) => m.value.id)).size).toBe(2);
    for (const m of events) {
      expect(m.key).toBe(tenant);
      expectMatchesEventSchema(Topics.LlmUsage, m.value);
    }
  });

  it('reports the tokens of the embeddings that rank knowledge for a reply too (the server charges them like a completion)', async () => {
    const tenant = 'ten_llm_usage_embeddings';
    const faqs = [
      { question: 'Do you deliver cakes?', answer: 'Yes, cakes are delivered within 10 km.' },
      { question: 'Do you deliver on Sundays?', answer: 'No Sunday delivery, sorry.' },
    ];
    await h.announceAgent(tenant, agentRecord('bakery', { skills: ['faq_responder'], faqs }));
    fake.respond((): FakeLlmStep => ({ content: 'We do not know yet.' }));
    const completionsBefore = fake.usages.length;

    const event: MessageInboundEvent = inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'do you deliver cakes on sundays' });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.find((m) => m.value.data.message_id === event.data.message_id), { description: 'the reply' });

    // The probe, the question and the two passages were embedded; each input's tokens are its words (the stand-in's count).
    expect(fake.embeddingRequests.length).toBeGreaterThan(0);
    const embeddingTokens = fake.embeddingRequests.flat().reduce((n, input) => n + input.split(/\s+/).length, 0);
    const completionTokens = fake.usages.slice(completionsBefore).reduce((n, u) => n + u.total_tokens, 0);
    const events = await pollUntil(
      () => {
        const mine = usage.messages.filter((m) => m.value.tenant_id === tenant).map((m) => m.value.data);
        return mine.reduce((n, d) => n + d.total_tokens, 0) >= embeddingTokens + completionTokens && mine;
      },
      { description: 'llm.usage of the embeddings and the completion' },
    );
    const embeddings = events.filter((d) => d.completion_tokens === 0);
    expect(embeddings.reduce((n, d) => n + d.total_tokens, 0)).toBe(embeddingTokens);
    expect(embeddings.every((d) => d.model === 'fake-model' && d.prompt_tokens === d.total_tokens && d.key === 'platform')).toBe(true);
    expect(events.reduce((n, d) => n + d.total_tokens, 0)).toBe(embeddingTokens + completionTokens);
  });
});
