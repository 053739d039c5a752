import type { MessageInboundEvent } from '@parley/contracts';
import { FakeLlmServer, pollUntil, type FakeLlmRequest, type FakeLlmStep } from '@parley/testing';
import { ReplyEngine, type ReplyRequest } from '../replies/reply-engine';
import { OPEN_EVERY_DAY, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const BUSINESS = '+4930000002';
const API_KEY = 'sk-test-llm-key';
const FAQS = [{ question: 'Do you deliver cakes?', answer: 'Yes, within 10 km.' }];

/** What the customer last said in a chat-completions request (the message being answered). */
const lastUserText = (r: FakeLlmRequest) => [...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const lastToolResult = (r: FakeLlmRequest) => {
  const last = r.messages[r.messages.length - 1];
  return last.role === 'tool' ? (JSON.parse(last.content ?? '{}') as Record<string, unknown>) : null;
};

/**
 * The LLM engine over real Kafka and PostgreSQL, against a local server speaking the OpenAI chat-completions wire
 * format: tool calls run the real skill code; every way the model can fail ends in the skills engine's one reply.
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
      LLM_MAX_CONCURRENT_PER_TENANT: '1',
    });
    out = await h.probeOutputs();
  });

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

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

  it('captures a lead through save_lead_details: stored and announced on lead.captured', async () => {
    const tenant = 'ten_llm_lead';
    await h.announceAgent(tenant, agentRecord('sales', { skills: ['lead_capture'] }));
    fake.respond((request): FakeLlmStep => {
      const result = lastToolResult(request);
      if (!result) return { toolCalls: [{ name: 'save_lead_details', arguments: { name: 'Ann Smith', email: 'ann dot smith at example dot org', interest: 'a wedding cake' } }] };
      return { content: result.passed_to_team ? 'Thanks Ann, our team will be in touch.' : `Missing: ${String(result.missing)}` };
    });
    const customer = phoneNumber();
    expect(await say(tenant, customer, "I'm Ann Smith, ann dot smith at example dot org, about a wedding cake")).toBe(
      'Hello from sales!\n\nThanks Ann, our team will be in touch.',
    );
    const captured = await pollUntil(() => out.leads.find((m) => m.value.tenant_id === tenant), { description: 'lead.captured' });
    expect(captured.value.data.lead).toMatchObject({ name: 'Ann Smith', email: 'ann.smith@example.org', phone: customer, interest: 'a wedding cake' });
    const page = await h.kafka.rpc.request('leads.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(page.data.map((l) => l.email)).toEqual(['ann.smith@example.org']);
  });

  it('answers messages that arrive while the model is still writing a reply together, in one reply', async () => {
    const tenant = 'ten_llm_burst';
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.respond(async (request) => {
      if (lastUserText(request) === 'hi') await gate;
      return { content: `You said: ${lastUserText(request)}` };
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

  it('keeps the conversation memory as messages and answers from search_faqs', async () => {
    const tenant = 'ten_llm_faq';
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    const customer = phoneNumber();
    // The default script: look the question up with search_faqs, then answer with the best match.
    expect(await say(tenant, customer, 'hi! do u deliver cakes?')).toBe('Hello from bakery!\n\nYes, within 10 km.');
    expect(await say(tenant, customer, 'do you deliver cakes to the airport too?')).toBe('Yes, within 10 km.');
    const last = fake.requests[fake.requests.length - 2];
    expect(last.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi! do u deliver cakes?'],
      ['assistant', 'Hello from bakery!\n\nYes, within 10 km.'],
      ['user', 'do you deliver cakes to the airport too?'],
    ]);
  });

  describe('falls back to the skills engine, with one reply', () => {
    const fallbackAnswer = 'Hello from bakery!\n\nYes, within 10 km.';
    let tenant: string;
    beforeAll(async () => {
      tenant = 'ten_llm_fallback';
      await h.announceAgent(tenant, agentRecord('bakery', { faqs: FAQS }));
    });

    it('when the model keeps calling tools past the round cap', async () => {
      fake.respond(() => ({ toolCalls: [{ name: 'search_faqs', arguments: { question: 'delivery' } }] }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (loop)')).toBe(fallbackAnswer);
      expect(fake.requests.filter((r) => lastUserText(r) === 'do you deliver cakes? (loop)')).toHaveLength(4); // 3 rounds of tools + the last call
    });

    it('when the model is slower than LLM_TIMEOUT_MS', async () => {
      fake.respond(() => ({ delayMs: 8000, content: 'too late' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (slow)')).toBe(fallbackAnswer);
    });

    it('when the server answers 500 with an OpenAI error body', async () => {
      fake.respond(() => ({ status: 500, message: 'The server had an error while processing your request.' }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (500)')).toBe(fallbackAnswer);
      expect(fake.requests).toHaveLength(1);
    });

    it('when the model writes broken tool arguments and then nothing', async () => {
      fake.respond((request) => (lastToolResult(request) ? { content: '   ' } : { toolCalls: [{ name: 'search_faqs', arguments: '{"question": ' }] }));
      expect(await say(tenant, phoneNumber(), 'do you deliver cakes? (broken)')).toBe(fallbackAnswer);
      expect(lastToolResult(fake.requests[1])).toEqual({ error: 'arguments must be a JSON object' });
    });
  });

  it('caps concurrent LLM replies per tenant: beyond the cap the skills engine answers at once, other tenants unaffected', async () => {
    const engine = h.app.get(ReplyEngine);
    const agent = agentRecord('bakery', { faqs: FAQS });
    const request = (tenantId: string, text: string): ReplyRequest => ({
      tenantId,
      agent,
      conversationHistory: [],
      firstReply: false,
      message: { text, type: 'text', contactName: null },
      customer: phoneNumber(),
      state: {},
      now: new Date(),
      calendar: { busy: () => Promise.resolve(new Set<number>()) },
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.respond(async () => {
      await gate;
      return { content: 'from the model' };
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
