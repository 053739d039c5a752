import type { AgentRecord, MessageInboundEvent } from '@parley/contracts';
import { FakeLlmServer, pollUntil, type FakeLlmRequest, type FakeLlmStep } from '@parley/testing';
import { ReplyEngine, type ReplyRequest } from '../replies/reply-engine';
import { unknownQuestion } from '../skills/faq.skill';
import { OPEN_EVERY_DAY, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const BUSINESS = '+4930000002';
const API_KEY = 'sk-test-llm-key';
const FAQS = [{ question: 'Do you deliver cakes?', answer: 'Yes, within 10 km.' }];
/** What the agent says when it does not know (the skills' own phrase), after the greeting on a first reply. */
const NOT_KNOWN = (agent: AgentRecord) => `${agent.greeting}\n\n${unknownQuestion({ ...replyRequest('ten_x', agent, ''), language: 'en' }).text}`;

function replyRequest(tenantId: string, agent: AgentRecord, text: string): ReplyRequest {
  return {
    tenantId,
    agent,
    conversationHistory: [],
    firstReply: false,
    message: { text, type: 'text', contactName: null },
    customer: phoneNumber(),
    state: {},
    now: new Date(),
    calendar: { busy: () => Promise.resolve(new Set<number>()) },
  };
}

/** What the customer last said in a chat-completions request (the message being answered). */
const lastUserText = (r: FakeLlmRequest) => [...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const lastToolResult = (r: FakeLlmRequest) => {
  const last = r.messages[r.messages.length - 1];
  return last.role === 'tool' ? (JSON.parse(last.content ?? '{}') as Record<string, unknown>) : null;
};

/**
 * The LLM engine over real Kafka and PostgreSQL, against a local server as strict as the OpenAI API (chat completions
 * and embeddings): retrieval first, passages cited by id, tool calls run by the real skill code; every way the model
 * can fail ends in the skills engine's one reply, and an unsupported answer in "not known, offer a person".
 */
describe('responder-service: replies from an OpenAI-compatible LLM', () => {
  let fake: FakeLlmServer;
  let h: ResponderHarness;
  let out: ResponderOutputs;

  beforeAll(async () => {
    fake = await FakeLlmServer.start({ apiKey: API_KEY });
    h = await ResponderHarness.start('llm', {
      LLM_BASE_URL: fake.baseUrl,
      LLM_API_KEY: API_KEY,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '4000', // generous: the machine running the tests may be busy
      LLM_MAX_TOOL_ROUNDS: '3',
      LLM_MAX_RETRIES: '1',
      LLM_EMBEDDING_MODEL: 'fake-embed',
      LLM_MAX_CONCURRENT_PER_TENANT: '1',
    });
    out = await h.probeOutputs();
  });

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  beforeEach(() => fake.reset());
  // Every request the engine sent passed the stand-in's OpenAI checks (tool messages answering calls, roles in order).
  afterEach(() => expect(fake.rejected).toEqual([]));

  /** Sends one customer message; returns its message.received answer once there, and checks it got exactly one reply. */
  async function say(tenant: string, customer: string, text: string): Promise<string | null> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    const got = await pollUntil(() => out.received.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    const replies = await pollUntil(() => {
      const sent = out.outbound.messages.filter((m) => m.value.data.in_reply_to?.includes(event.data.message_id));
      return sent.length > 0 && sent;
    });
    expect(replies.map((m) => m.value.data.content)).toEqual([{ type: 'text', text: got.value.data.agent_response }]);
    return got.value.data.agent_response;
  }

  it('books through tool calls run by the booking skill: the appointment is stored and appointment.booked emitted', async () => {
    const tenant = 'ten_llm_book';
    const agent = agentRecord('clinic', {
      instruction: 'You are the friendly receptionist of Riverside Physio.',
      skills: ['appointment_booking'],
      booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY },
    });
    await h.announceAgent(tenant, agent);
    fake.respond((request): FakeLlmStep => {
      const result = lastToolResult(request);
      if (!result) return { toolCalls: [{ name: 'find_free_slots', arguments: { day: 'tomorrow' } }] };
      if ('free_slots' in result) return { toolCalls: [{ name: 'book_appointment', arguments: { start: (result.free_slots as string[])[0] } }] };
      return { content: result.booked ? `Booked: ${String(result.starts_at)}.` : `Sorry, ${String(result.reason)}.` };
    });

    const customer = phoneNumber();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await say(tenant, customer, 'book me in first thing tomorrow')).toBe(`${agent.greeting}\n\nBooked: ${tomorrow}T08:00.`);

    const stored = await pollUntil(() => out.booked.find((m) => m.value.tenant_id === tenant), { description: 'appointment.booked' });
    expect(stored.value.data.appointment).toMatchObject({ customer, starts_at: `${tomorrow}T08:00:00.000Z`, status: 'booked', timezone: 'UTC' });
    const page = await h.kafka.rpc.request('appointments.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(page.data.map((a) => a.starts_at)).toEqual([`${tomorrow}T08:00:00.000Z`]);

    // What the model saw: the instruction as system prompt, the skill's tools, the key, and the real calendar's answers.
    const first = fake.requests[0];
    expect(first.model).toBe('fake-model');
    expect(first.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining(agent.instruction) });
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(['book_appointment', 'find_free_slots', 'transfer_to_human']);
    expect(lastToolResult(fake.requests[1])).toMatchObject({ timezone: 'UTC', free_slots: expect.arrayContaining([`${tomorrow}T08:00`]) });

    // Another customer asking the model for the same slot is refused by the skill's calendar check: the slot is taken.
    fake.respond((request): FakeLlmStep => {
      const result = lastToolResult(request);
      if (!result) return { toolCalls: [{ name: 'book_appointment', arguments: { start: `${tomorrow}T08:00` } }] };
      return { content: result.booked ? 'Booked.' : `Sorry, that time is ${String(result.reason)}; how about ${(result.alternatives as string[])[0]}?` };
    });
    const other = phoneNumber();
    expect(await say(tenant, other, 'same slot for me please')).toBe(`${agent.greeting}\n\nSorry, that time is taken; how about ${tomorrow}T08:30?`);
    const after = await h.kafka.rpc.request('appointments.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(after.data).toHaveLength(1);
  });

  it('captures a lead through save_lead_details once a name and the WhatsApp number are known (lead.captured); later details update it', async () => {
    const tenant = 'ten_llm_lead';
    await h.announceAgent(tenant, agentRecord('sales', { skills: ['lead_capture'] }));
    fake.respond((request): FakeLlmStep => {
      const result = lastToolResult(request);
      if (!result) {
        const said = lastUserText(request);
        const details = said.includes('@') ? { email: said.trim(), interest: 'a wedding cake' } : { name: 'Ann Smith' };
        return { toolCalls: [{ name: 'save_lead_details', arguments: details }] };
      }
      return { content: `${result.passed_to_team ? 'Thanks Ann, our team will be in touch.' : 'Not passed on.'} Next: ${String(result.ask_next)}` };
    });
    const customer = phoneNumber();
    expect(await say(tenant, customer, "I'm Ann Smith")).toBe('Hello from sales!\n\nThanks Ann, our team will be in touch. Next: email');
    const captured = await pollUntil(() => out.leads.find((m) => m.value.tenant_id === tenant), { description: 'lead.captured' });
    expect(captured.value.data.lead).toMatchObject({ name: 'Ann Smith', email: null, phone: customer, interest: null });

    expect(await say(tenant, customer, 'ann.smith@example.org')).toBe('Thanks Ann, our team will be in touch. Next: null');
    const lead = await pollUntil(async () => {
      const page = await h.kafka.rpc.request('leads.list', { tenant_id: tenant, limit: 10, cursor: null });
      return page.data.length === 1 && page.data[0].email !== null && page.data;
    }, { description: 'the lead updated with the email' });
    expect(lead).toEqual([expect.objectContaining({ id: captured.value.data.lead.id, name: 'Ann Smith', email: 'ann.smith@example.org', phone: customer, interest: 'a wedding cake' })]);
    expect(out.leads.messages.filter((m) => m.value.tenant_id === tenant)).toHaveLength(1);
  });

  it('answers messages that arrive while the model is still writing a reply together, in one reply', async () => {
    const tenant = 'ten_llm_burst';
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.respond(async (request) => {
      if (lastUserText(request) === 'hi') await gate;
      // A question about the business must cite the passage it was given; a greeting needs none.
      const cited = request.messages[0].content?.includes('[faq-1]') ? ' [faq-1]' : '';
      return { content: `You said: ${lastUserText(request)}${cited}` };
    });
    const customer = phoneNumber();
    const first = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hi' });
    await h.deliverInbound(first);
    await pollUntil(() => fake.requests.length === 1, { description: 'the model writing the first reply' });
    const second = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'do you deliver' });
    const third = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'to Leeds?' });
    await h.deliverInbound(second);
    await h.deliverInbound(third); // acknowledged by the broker: both wait in the partition
    open();

    const answers = await Promise.all(
      [first, second, third].map((e) => pollUntil(() => out.received.find((m) => m.value.data.message_id === e.data.message_id), { description: 'message.received' })),
    );
    expect(answers.map((a) => a.value.data.agent_response)).toEqual([
      'Hello from bakery!\n\nYou said: hi',
      'You said: do you deliver\nto Leeds?',
      'You said: do you deliver\nto Leeds?',
    ]);
    expect(fake.requests).toHaveLength(2);
    const burstReply = await pollUntil(() => out.outbound.find((m) => m.value.data.in_reply_to?.includes(third.data.message_id) === true));
    expect(burstReply.value.data.in_reply_to).toEqual([second.data.message_id, third.data.message_id]);
  });

  it('keeps the conversation memory as messages and answers from search_knowledge, citations out of the text', async () => {
    const tenant = 'ten_llm_faq';
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    const customer = phoneNumber();
    // The default script: look the question up with search_knowledge, then answer with the best passage, citing it.
    expect(await say(tenant, customer, 'hi! do u deliver cakes?')).toBe('Hello from bakery!\n\nYes, within 10 km.');
    expect(await say(tenant, customer, 'do you deliver cakes to the airport too?')).toBe('Yes, within 10 km.');
    const last = fake.requests[fake.requests.length - 2];
    expect(last.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi! do u deliver cakes?'],
      ['assistant', 'Hello from bakery!\n\nYes, within 10 km.'],
      ['user', 'do you deliver cakes to the airport too?'],
    ]);
    expect(lastToolResult(fake.requests[fake.requests.length - 1])).toEqual({
      passages: [{ id: 'faq-1', type: 'faq', title: 'Do you deliver cakes?', text: 'Yes, within 10 km.' }],
    });
  });

  describe('retrieval first: passages with ids in the prompt, answers citing them', () => {
    const dental = agentRecord('bloom-dental', {
      instruction: 'You are the assistant of Bloom Dental. We are open Monday to Friday from 9:00 to 17:00. Parking is free behind the building.',
      greeting: 'Hi, Bloom Dental here.',
      skills: ['faq_responder', 'appointment_booking'],
      faqs: [
        { question: 'Which insurance do you accept?', answer: 'We accept Cigna, Aetna and Delta Dental.' },
        { question: 'How much is teeth whitening?', answer: 'Teeth whitening costs 250 USD per session.' },
      ],
      booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY },
    });
    const tenant = 'ten_llm_cite';
    beforeAll(() => h.announceAgent(tenant, dental));

    it('runs a multi-round tool call (a knowledge search, then a skill) and answers citing passages, the markers out of the text', async () => {
      fake.respond((request): FakeLlmStep => {
        const result = lastToolResult(request);
        if (!result) return { toolCalls: [{ name: 'search_knowledge', arguments: { query: 'opening hours' } }] };
        if ('passages' in result) return { toolCalls: [{ name: 'find_free_slots', arguments: { day: 'tomorrow' } }] };
        const hours = (request.messages.find((m) => m.role === 'tool')?.content ?? '').match(/"id":"(instruction-\d+)"/)?.[1];
        return { content: `Yes, we take Cigna [faq-1]. We are open 9:00 to 17:00 [${hours}]. First free slot: ${(result.free_slots as string[])[0]}.` };
      });
      const customer = phoneNumber();
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect(await say(tenant, customer, 'is cigna ok for you guys, and when can i come in tomorrow?')).toBe(
        `${dental.greeting}\n\nYes, we take Cigna. We are open 9:00 to 17:00. First free slot: ${tomorrow}T08:00.`,
      );

      // The prompt carried the retrieved passages with their ids; the insurance FAQ matched the message.
      const system = fake.requests[0].messages[0].content ?? '';
      expect(system).toContain('[faq-1] faq "Which insurance do you accept?": We accept Cigna, Aetna and Delta Dental.');
      expect(system).toContain('Cite the id of every passage you use');
      // Three rounds, each tool message answering the call before it (the strict stand-in checked the order).
      expect(fake.requests).toHaveLength(3);
      const [search, slots] = [fake.requests[1].messages, fake.requests[2].messages].map((m) => m[m.length - 1]);
      expect(search.tool_call_id).toBe(fake.requests[1].messages[fake.requests[1].messages.length - 2].tool_calls?.[0].id);
      expect(JSON.parse(search.content ?? '{}')).toMatchObject({ passages: [expect.objectContaining({ id: expect.stringMatching(/^instruction-/), type: 'instruction' })] });
      expect(JSON.parse(slots.content ?? '{}')).toMatchObject({ free_slots: expect.arrayContaining([`${tomorrow}T08:00`]) });
    });

    it("puts what the model cited in the reply's sources; passages reranked with embeddings, each embedded once", async () => {
      fake.respond((request) => ({ content: /\[faq-2\]/.test(request.messages[0].content ?? '') ? 'Whitening is 250 USD [faq-2].' : 'No passage.' }));
      const engine = h.app.get(ReplyEngine);
      const question = 'do you accept insurance, what does whitening cost';
      const first = await engine.reply(replyRequest(tenant, dental, question));
      expect(first).toMatchObject({ text: 'Whitening is 250 USD.', skill: 'faq_responder', handoff: false });
      expect(first.sources).toEqual([{ type: 'faq', id: 'faq-2', title: 'How much is teeth whitening?', excerpt: 'Teeth whitening costs 250 USD per session.' }]);
      // Both FAQs matched: the server's embeddings reranked them (the query embedded, and each passage once: the
      // insurance FAQ was already embedded for the previous test's message, which it matched too).
      const embedded = fake.embeddingRequests.flat().filter((t) => t !== 'probe');
      expect(embedded).toEqual(expect.arrayContaining([question, 'How much is teeth whitening?\nTeeth whitening costs 250 USD per session.']));
      expect(embedded.filter((t) => t !== question).every((t) => /^(Which insurance|How much is teeth whitening)/.test(t))).toBe(true);
      expect(new Set(embedded).size).toBe(embedded.length);
      fake.embeddingRequests.length = 0;
      await engine.reply(replyRequest(tenant, dental, `${question}?`));
      expect(fake.embeddingRequests).toEqual([[`${question}?`]]); // the passages' vectors were cached
    });

    it('answers "not known, offer a person" when the reply cites a passage it was not given', async () => {
      fake.respond(() => ({ content: 'Yes, we repair car brakes on Saturdays [faq-7].' }));
      const answer = await say(tenant, phoneNumber(), 'can you fix my car brakes');
      expect(answer).toBe(NOT_KNOWN(dental));
      const reply = await h.app.get(ReplyEngine).reply(replyRequest(tenant, dental, 'can you fix my car brakes'));
      expect(reply).toMatchObject({ skill: 'faq_responder', handoff: false, sources: [], state: { humanOffered: true } });
    });

    it('answers "not known" when a question about the business is answered citing nothing; small talk needs no citation', async () => {
      fake.respond((request) => ({ content: lastUserText(request) === 'hello there' ? 'Hello! How can I help you today?' : 'Sure, we do root canals for 90 USD.' }));
      const customer = phoneNumber();
      expect(await say(tenant, customer, 'hello there')).toBe(`${dental.greeting}\n\nHello! How can I help you today?`);
      expect(await say(tenant, customer, 'how much is a root canal?')).toBe(NOT_KNOWN(dental).split('\n\n')[1]);
    });
  });

  describe('falls back to the skills engine, with one reply', () => {
    const fallbackAnswer = 'Hello from bakery!\n\nYes, within 10 km.';
    let tenant: string;
    beforeAll(async () => {
      tenant = 'ten_llm_fallback';
      await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    });

    it('when the model keeps calling tools past the round cap', async () => {
      fake.respond(() => ({ toolCalls: [{ name: 'search_knowledge', arguments: { query: 'delivery' } }] }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (loop)')).toBe(fallbackAnswer);
      expect(fake.requests.filter((r) => lastUserText(r) === 'do you deliver cakes? (loop)')).toHaveLength(4); // 3 rounds of tools + the last call
    });

    it('when the model is slower than LLM_TIMEOUT_MS', async () => {
      fake.respond(() => ({ delayMs: 8000, content: 'too late' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (slow)')).toBe(fallbackAnswer);
    });

    it('when the server answers 500 with an OpenAI error body, after LLM_MAX_RETRIES retries', async () => {
      fake.respond(() => ({ status: 500, message: 'The server had an error while processing your request.' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (500)')).toBe(fallbackAnswer);
      expect(fake.requests).toHaveLength(2);
    });

    it('when the server refuses the request with a 400', async () => {
      fake.respond(() => ({ status: 400, message: "Invalid value for 'model'.", type: 'invalid_request_error' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (400)')).toBe(fallbackAnswer);
      expect(fake.requests).toHaveLength(1); // a 400 is not retried
    });

    it('when the model refuses', async () => {
      fake.respond(() => ({ refusal: "I'm sorry, I can't help with that." }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (refusal)')).toBe(fallbackAnswer);
    });

    it('when the model writes broken tool arguments (a malformed tool call)', async () => {
      fake.respond(() => ({ toolCalls: [{ name: 'search_knowledge', arguments: '{"query": ' }] }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (broken)')).toBe(fallbackAnswer);
      expect(fake.requests).toHaveLength(1);
    });

    it('when the model calls a tool it was not offered', async () => {
      fake.respond(() => ({ toolCalls: [{ name: 'book_appointment', arguments: { start: '2026-12-01T10:00' } }] }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (no such tool)')).toBe(fallbackAnswer);
    });

    it('when the model answers with nothing', async () => {
      fake.respond(() => ({ content: '   ' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (empty)')).toBe(fallbackAnswer);
    });
  });

  it('caps concurrent LLM replies per tenant: beyond the cap the skills engine answers at once, other tenants unaffected', async () => {
    const engine = h.app.get(ReplyEngine);
    const agent = agentRecord('bakery', { faqs: FAQS });
    const request = (tenantId: string, text: string): ReplyRequest => replyRequest(tenantId, agent, text);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.respond(async () => {
      await gate;
      return { content: 'from the model [faq-1]' };
    });

    const held = engine.reply(request('ten_cap_a', 'do you deliver cakes? (held)'));
    await pollUntil(() => fake.requests.length === 1, { description: 'the first call to reach the model' });
    const capped = await engine.reply(request('ten_cap_a', 'do you deliver cakes? (capped)'));
    expect(capped.text).toBe('Yes, within 10 km.');
    const otherTenant = engine.reply(request('ten_cap_b', 'do you deliver cakes? (other tenant)'));
    await pollUntil(() => fake.requests.length === 2, { description: "the other tenant's call to reach the model" });
    open();
    expect((await held).text).toBe('from the model');
    expect((await otherTenant).text).toBe('from the model');
    expect(fake.requests.map(lastUserText)).toEqual(['do you deliver cakes? (held)', 'do you deliver cakes? (other tenant)']);
    // The slot is free again once the call ended.
    expect((await engine.reply(request('ten_cap_a', 'do you deliver cakes? (after)'))).text).toBe('from the model');
  });
});
