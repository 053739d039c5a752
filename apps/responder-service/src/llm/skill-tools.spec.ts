import type { ReplyRequest } from '../replies/reply-engine';
import { leadCapture } from '../skills/lead-capture.skill';
import { MONDAY_MORNING, bakery, clinic } from '../skills/test-agents';
import type { RankedPassage } from './knowledge-passage';
import { LlmCallError } from './openai.client';
import { ToolSession, type SearchKnowledge } from './skill-tools';

const DELIVERY: RankedPassage = { type: 'faq', id: 'faq-2', title: 'Do you deliver cakes?', text: 'Yes, we deliver cakes within 10 km.', score: 0.9 };

function session(agent = clinic, busy: number[] = [], state: ReplyRequest['state'] = {}, search?: SearchKnowledge, customer = '+447911123456'): ToolSession {
  return new ToolSession({
    tenantId: 'ten_spec',
    agent,
    conversationHistory: [],
    firstReply: false,
    message: { text: '', type: 'text', contactName: null },
    customer,
    state,
    now: MONDAY_MORNING,
    calendar: { busy: () => Promise.resolve(new Set(busy)) },
  }, search);
}

describe('the skills as LLM tools', () => {
  it("exposes only the agent's skills (and the hand-off)", () => {
    expect(session(bakery).tools().map((t) => t.function.name)).toEqual(['search_knowledge', 'save_lead_details', 'transfer_to_human']);
    expect(session(clinic).tools().map((t) => t.function.name)).toEqual(['search_knowledge', 'find_free_slots', 'book_appointment', 'transfer_to_human']);
  });

  it('fails the reply on a malformed call (a tool not offered, arguments that are not an object)', async () => {
    const s = session();
    await expect(s.call('save_lead_details', '{}')).rejects.toThrow(new LlmCallError('malformed tool call: "save_lead_details" is not a tool offered', null));
    await expect(s.call('search_knowledge', '{"query": ')).rejects.toThrow(/arguments are not a JSON object/);
    await expect(s.call('search_knowledge', '[1]')).rejects.toThrow(/arguments are not a JSON object/);
    expect(s.acted).toBe(false);
  });

  it('searches the knowledge, and what it found may be cited; searching is not acting', async () => {
    const s = session(bakery, [], {}, (query) => Promise.resolve(/deliver/.test(query) ? [DELIVERY] : []));
    expect(s.given.size).toBe(0);
    expect(await s.call('search_knowledge', JSON.stringify({ query: 'cake delivery' }))).toEqual({
      passages: [{ id: 'faq-2', type: 'faq', title: 'Do you deliver cakes?', text: 'Yes, we deliver cakes within 10 km.' }],
    });
    expect([...s.given.keys()]).toEqual(['faq-2']);
    expect(await s.call('search_knowledge', JSON.stringify({ query: 'can I bring my dog' }))).toMatchObject({ passages: [], note: expect.any(String) });
    expect(await s.call('search_knowledge', JSON.stringify({ query: ' ' }))).toEqual({ error: 'query is required' });
    expect(s.skill).toBe('faq_responder');
    expect(s.acted).toBe(false);
  });

  it('reads lead fields with the lead skill (spelt-out email, local phone); a name and the WhatsApp number make the lead an effect', async () => {
    const s = session(bakery);
    expect(await s.call('save_lead_details', JSON.stringify({ name: 'Maria', email: 'maria at gmail' }))).toMatchObject({
      invalid: { email: 'not an email address' },
      missing: ['email', 'interest'],
      ask_next: 'email',
      passed_to_team: true,
    });
    // The same lead the lead skill stores for "I'm Maria" from this number (lead.captured).
    const skill = leadCapture({ ...s.request, language: 'en', message: { text: "I'm Maria", type: 'text', contactName: null } });
    expect(s.effects.lead).toEqual({ name: 'Maria', phone: '+447911123456' });
    expect(s.effects.lead).toEqual(skill.effects?.lead);
    expect(s.state.lead).toMatchObject({ stored: true, done: false, asking: 'email' });

    const done = await s.call('save_lead_details', JSON.stringify({ email: 'maria dot lopez at gmail dot com', phone: '07912 345678', interest: 'catering' }));
    expect(done).toMatchObject({ passed_to_team: true, missing: [], ask_next: null });
    expect(s.effects.lead).toEqual({ name: 'Maria', email: 'maria.lopez@gmail.com', phone: '+447912345678', interest: 'catering' });
    expect(s.state.lead).toMatchObject({ done: true, asking: null, stored: true });
  });

  it('updates a stored lead only when a detail changes (lead.updated), and waits for a way to reach the person', async () => {
    const stored: ReplyRequest['state'] = { lead: { facts: { name: 'Maria', phone: '+447911123456' }, asking: 'email', done: false, stored: true, language: 'es' } };
    const same = session(bakery, [], stored);
    expect(await same.call('save_lead_details', JSON.stringify({ name: 'Maria' }))).toMatchObject({ passed_to_team: true });
    expect(same.effects.lead).toBeUndefined();
    const changed = session(bakery, [], stored);
    await changed.call('save_lead_details', JSON.stringify({ interest: 'a wedding cake' }));
    expect(changed.effects.lead).toEqual({ name: 'Maria', phone: '+447911123456', interest: 'a wedding cake' });
    expect(changed.state.lead).toMatchObject({ language: 'es', asking: 'email' });

    // A business-scoped customer id is no phone number: the name alone is not a lead yet.
    const noNumber = session(bakery, [], {}, undefined, 'BR.1234567890');
    expect(await noNumber.call('save_lead_details', JSON.stringify({ name: 'Maria' }))).toMatchObject({ passed_to_team: false, ask_next: 'email' });
    expect(noNumber.effects.lead).toBeUndefined();
    await noNumber.call('save_lead_details', JSON.stringify({ email: 'maria@example.org' }));
    expect(noNumber.effects.lead).toEqual({ name: 'Maria', email: 'maria@example.org' });
  });

  it('lists free slots inside opening hours and books one, refusing a taken or closed one with alternatives', async () => {
    const taken = Date.parse('2026-11-24T10:00:00.000Z');
    const s = session(clinic, [taken]);
    const free = (await s.call('find_free_slots', JSON.stringify({ day: 'tomorrow' }))) as { free_slots: string[]; timezone: string };
    expect(free.timezone).toBe('Europe/London');
    expect(free.free_slots.slice(0, 3)).toEqual(['2026-11-24T09:00', '2026-11-24T09:30', '2026-11-24T10:30']);

    expect(await s.call('book_appointment', JSON.stringify({ start: '2026-11-24T10:00' }))).toMatchObject({
      booked: false,
      reason: 'taken',
      alternatives: ['2026-11-24T09:00', '2026-11-24T09:30', '2026-11-24T10:30'],
    });
    expect(await s.call('book_appointment', JSON.stringify({ start: '2026-11-29T10:00' }))).toMatchObject({ booked: false, reason: 'closed' });
    expect(s.effects.appointment).toBeUndefined();

    expect(await s.call('book_appointment', JSON.stringify({ start: '2026-11-24T10:30' }))).toMatchObject({ booked: true, starts_at: '2026-11-24T10:30' });
    expect(s.effects.appointment).toEqual({ startsAt: '2026-11-24T10:30:00.000Z', endsAt: '2026-11-24T11:00:00.000Z', timezone: 'Europe/London', replaces: null });
    expect(s.skill).toBe('appointment_booking');
  });

  it("moves the conversation's booking, and leaves the request's memory untouched", async () => {
    const state: ReplyRequest['state'] = { booking: { stage: 'booked', offered: [], pending: null, booked: '2026-11-24T14:00:00.000+00:00', misses: 0 } };
    const s = session(clinic, [], state);
    expect(await s.call('book_appointment', JSON.stringify({ start: 'thursday 2pm' }))).toMatchObject({ booked: true, moved: true });
    expect(s.effects.appointment?.replaces).toBe('2026-11-24T14:00:00.000Z');
    expect(state.booking?.booked).toBe('2026-11-24T14:00:00.000+00:00');
  });
});
