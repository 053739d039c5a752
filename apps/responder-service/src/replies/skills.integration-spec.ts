import {
  Topics,
  type AppointmentCancelledEvent,
  type AppointmentRescheduledEvent,
  type LeadUpdatedEvent,
  type MessageInboundEvent,
  type MessageReceivedEvent,
} from '@parley/contracts';
import type { ProbedMessage, TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { BUSINESS, OPEN_EVERY_DAY, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/** Conversations over real Kafka and PostgreSQL, one per skill: inbound message in, reply and public events out. */
describe('responder-service: the skills engine in conversations over Kafka', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;

  let leadUpdates: TopicProbe<LeadUpdatedEvent>;
  let rescheduledEvents: TopicProbe<AppointmentRescheduledEvent>;
  let cancelledEvents: TopicProbe<AppointmentCancelledEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('skills');
    out = await h.probeOutputs();
    [leadUpdates, rescheduledEvents, cancelledEvents] = await Promise.all([
      h.kafka.probe<LeadUpdatedEvent>(Topics.LeadUpdated),
      h.kafka.probe<AppointmentRescheduledEvent>(Topics.AppointmentRescheduled),
      h.kafka.probe<AppointmentCancelledEvent>(Topics.AppointmentCancelled),
    ]);
  });

  afterAll(async () => {
    await Promise.all([leadUpdates, rescheduledEvents, cancelledEvents].map((p) => p?.stop()));
    await h?.close();
  });

  const receivedFor = (messageId: string): ProbedMessage<MessageReceivedEvent>[] => out.received.messages.filter((m) => m.value.data.message_id === messageId);

  /** Sends one customer message and returns the agent's answer as reported on message.received (null: silent). */
  async function say(tenant: string, customer: string, text: string): Promise<string | null> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    const got = await pollUntil(() => receivedFor(event.data.message_id)[0], { description: `message.received of "${text}"` });
    return got.value.data.agent_response;
  }

  async function conversationOf(tenant: string, customer: string): Promise<string> {
    const rows: { id: string }[] = await h.sql.query('SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenant, customer]);
    return rows[0].id;
  }

  it('faq_responder: answers from the FAQs, admits what it does not know, and hands over; silent until released', async () => {
    const tenant = 'ten_faq';
    const customer = phoneNumber();
    const agent = agentRecord('bakery', {
      skills: ['faq_responder'],
      faqs: [
        { question: 'What are your opening hours?', answer: 'We open at 8:00.' },
        { question: 'Do you deliver cakes?', answer: 'Yes, within 10 km.' },
      ],
    });
    await h.announceAgent(tenant, agent);

    expect(await say(tenant, customer, 'wen do u open??')).toBe(`${agent.greeting}\n\nWe open at 8:00.`);
    expect(await say(tenant, customer, 'do you do delivrey')).toBe('Yes, within 10 km.');
    expect(await say(tenant, customer, 'can I bring my dog?')).toContain("I don't know the answer to that. Would you like me to connect you with a person");
    expect(await say(tenant, customer, 'yes pls')).toContain('passing you to a member of our team');

    const conversationId = await conversationOf(tenant, customer);
    const handoff = await pollUntil(() => out.handoffs.find((m) => m.value.data.conversation_id === conversationId), { description: 'conversation.handoff' });
    expect(handoff.key).toBe(`${tenant}:${customer}`);
    expect(handoff.value.data).toEqual({
      event: 'conversation.handoff',
      tenant_id: tenant,
      channel: 'whatsapp',
      conversation_id: conversationId,
      customer,
      agent: 'bakery',
      reason: 'customer_asked_for_human',
      at: expect.any(String),
      dashboard_url: `http://127.0.0.1:3000/dashboard/inbox/${conversationId}`,
      contact_name: null,
    });

    // Handed off: the message is reported, the agent stays silent.
    expect(await say(tenant, customer, 'hello? anyone there?')).toBeNull();
    const handedOff = await h.kafka.rpc.request('conversations.get', { tenant_id: tenant, id: conversationId });
    expect(handedOff.state).toBe('handed_off');
    expect(handedOff.messages.map((m) => m.role)).toEqual(['customer', 'agent', 'customer', 'agent', 'customer', 'agent', 'customer', 'agent', 'customer']);
    await expect(h.kafka.rpc.request('conversations.get', { tenant_id: 'ten_other', id: conversationId })).rejects.toMatchObject({ problem: { status: 404 } });
    await expect(h.kafka.rpc.request('conversations.release', { tenant_id: 'ten_other', id: conversationId })).rejects.toMatchObject({ problem: { status: 404 } });

    expect(await h.kafka.rpc.request('conversations.release', { tenant_id: tenant, id: conversationId })).toMatchObject({ id: conversationId, state: 'active' });
    expect(await say(tenant, customer, 'opening hours?')).toBe('We open at 8:00.');
    const list = await h.kafka.rpc.request('conversations.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(list.data.map((c) => c.id)).toEqual([conversationId]);
  });

  it('lead_capture: stores the lead once a name and a way to reach the person are known (lead.captured), later details update it (lead.updated)', async () => {
    const tenant = 'ten_lead';
    const customer = '+447911123456';
    await h.announceAgent(tenant, agentRecord('sales', { skills: ['lead_capture', 'faq_responder'] }));

    expect(await say(tenant, customer, "hey there! i'm Maria Lopez and i'd like to know more about teeth whitening")).toContain(
      "Nice to meet you, Maria! What's the best email address to reach you?",
    );
    const conversationId = await conversationOf(tenant, customer);
    const captured = await pollUntil(() => out.leads.find((m) => m.value.data.lead.conversation_id === conversationId), { description: 'lead.captured' });
    expect(captured.key).toBe(`${tenant}:${customer}`);
    expect(captured.value.data).toEqual({
      event: 'lead.captured',
      tenant_id: tenant,
      channel: 'whatsapp',
      agent: 'sales',
      lead: {
        id: expect.stringMatching(/^led_/),
        name: 'Maria Lopez',
        email: null,
        phone: customer,
        interest: 'teeth whitening',
        conversation_id: conversationId,
        created_at: expect.any(String),
      },
      at: expect.any(String),
    });

    const updatesOf = () => leadUpdates.messages.filter((m) => m.value.data.lead.conversation_id === conversationId);
    expect(await say(tenant, customer, 'sure, its maria.lopez@example.org')).toContain("I've passed your details to our team");
    const updated = await pollUntil(() => updatesOf()[0], { description: 'lead.updated' });
    expect(updated.key).toBe(`${tenant}:${customer}`);
    expectMatchesEventSchema(Topics.LeadUpdated, updated.value);
    expect(updated.value.data).toEqual({ ...captured.value.data, event: 'lead.updated', lead: { ...captured.value.data.lead, email: 'maria.lopez@example.org' }, at: expect.any(String) });

    expect(await say(tenant, customer, 'actually use my work email maria@lopez.dev')).toContain("I've updated your details");
    const corrected = await pollUntil(() => updatesOf()[1], { description: 'the second lead.updated' });
    expect(corrected.value.data.lead).toEqual({ ...captured.value.data.lead, email: 'maria@lopez.dev' });
    expect(out.leads.messages.filter((m) => m.value.data.lead.conversation_id === conversationId)).toHaveLength(1);

    const page = await h.kafka.rpc.request('leads.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(page).toEqual({ data: [{ ...captured.value.data.lead, email: 'maria@lopez.dev' }], next_cursor: null });
    expect((await h.kafka.rpc.request('leads.list', { tenant_id: 'ten_other', limit: 10, cursor: null })).data).toEqual([]);
  });

  it('appointment_booking: a changed mind before confirming, then book → reschedule (same id) → cancel, each with its event', async () => {
    const tenant = 'ten_book';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('clinic', { skills: ['appointment_booking'], booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY } }));

    expect(await say(tenant, customer, 'can i come in tmrw at 10am?')).toMatch(/Shall I book \w{3} \d{1,2} \w{3}, 10:00 \(UTC\) for you\? Reply yes to confirm\.$/);
    expect(await say(tenant, customer, 'actually 11 would be better')).toMatch(/^Shall I book \w{3} \d{1,2} \w{3}, 11:00 \(UTC\) for you\?/);
    expect(await say(tenant, customer, 'yes confirm')).toMatch(/^You're booked for \w{3} \d{1,2} \w{3}, 11:00–11:30 \(UTC\)/);

    const conversationId = await conversationOf(tenant, customer);
    const ofConversation = <T extends { value: { data: { appointment: { conversation_id: string } } } }>(messages: T[]) =>
      messages.find((m) => m.value.data.appointment.conversation_id === conversationId);
    const booked = await pollUntil(() => ofConversation(out.booked.messages), { description: 'appointment.booked' });
    const now = new Date();
    const tomorrow11 = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 11)).toISOString();
    expect(booked.value.data).toMatchObject({
      event: 'appointment.booked',
      tenant_id: tenant,
      agent: 'clinic',
      appointment: { customer, starts_at: tomorrow11, timezone: 'UTC', status: 'booked', conversation_id: conversationId },
    });
    const { id } = booked.value.data.appointment;

    expect(await say(tenant, customer, 'can we move it to Friday at 4?')).toMatch(/^Shall I move your appointment from \w{3} \d{1,2} \w{3}, 11:00 to Fri \d{1,2} \w{3}, 16:00 \(UTC\)\?/);
    expect(await say(tenant, customer, 'yep')).toContain('Done, your appointment is moved to Fri');
    const rescheduled = await pollUntil(() => ofConversation(rescheduledEvents.messages), { description: 'appointment.rescheduled' });
    expect(rescheduled.key).toBe(`${tenant}:${customer}`);
    expectMatchesEventSchema(Topics.AppointmentRescheduled, rescheduled.value);
    const moved = rescheduled.value.data;
    expect(moved).toMatchObject({ event: 'appointment.rescheduled', agent: 'clinic', appointment: { id, status: 'booked' }, previous: { starts_at: tomorrow11 } });
    expect([new Date(moved.appointment.starts_at).getUTCDay(), moved.appointment.starts_at.slice(11, 16)]).toEqual([5, '16:00']);

    expect(await say(tenant, customer, 'cancel my appointment')).toContain('is cancelled');
    const cancelled = await pollUntil(() => ofConversation(cancelledEvents.messages), { description: 'appointment.cancelled' });
    expectMatchesEventSchema(Topics.AppointmentCancelled, cancelled.value);
    expect(cancelled.value.data).toMatchObject({ event: 'appointment.cancelled', appointment: { id, starts_at: moved.appointment.starts_at, status: 'cancelled' } });

    const page = await h.kafka.rpc.request('appointments.list', { tenant_id: tenant, limit: 10, cursor: null });
    expect(page.data).toEqual([{ ...moved.appointment, status: 'cancelled' }]);
  });

  it('appointment_booking: two customers confirming the same slot at once get one booking and one alternative', async () => {
    const tenant = 'ten_race';
    await h.announceAgent(tenant, agentRecord('clinic', { skills: ['appointment_booking'], booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY } }));
    const customers = [phoneNumber(), phoneNumber(), phoneNumber(), phoneNumber()];
    for (const c of customers) expect(await say(tenant, c, 'book me tomorrow at 2pm')).toContain('14:00 (UTC)');

    const answers = await Promise.all(customers.map((c) => say(tenant, c, 'yes')));
    expect(answers.filter((a) => a?.startsWith("You're booked"))).toHaveLength(1);
    expect(answers.filter((a) => a?.includes('has just been taken'))).toHaveLength(3);
    const rows: { n: string }[] = await h.sql.query(`SELECT count(*) AS n FROM appointments WHERE tenant_id = $1 AND status = 'booked'`, [tenant]);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('appointment_booking: customers moving their bookings to the same slot at once: one moves, the others keep theirs', async () => {
    const tenant = 'ten_move_race';
    await h.announceAgent(tenant, agentRecord('clinic', { skills: ['appointment_booking'], booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY } }));
    const customers = [phoneNumber(), phoneNumber(), phoneNumber()];
    for (const [i, c] of customers.entries()) {
      await say(tenant, c, `book me tomorrow at ${9 + i}am`);
      expect(await say(tenant, c, 'yes')).toMatch(/^You're booked/);
    }
    for (const c of customers) expect(await say(tenant, c, 'actually can we move it to 3pm?')).toContain('Shall I move your appointment');

    const answers = await Promise.all(customers.map((c) => say(tenant, c, 'yes')));
    expect(answers.filter((a) => a?.startsWith('Done, your appointment is moved'))).toHaveLength(1);
    expect(answers.filter((a) => a?.includes('has just been taken'))).toHaveLength(2);
    const rows: { starts_at: Date; status: string }[] = await h.sql.query(`SELECT starts_at, status FROM appointments WHERE tenant_id = $1 ORDER BY starts_at`, [tenant]);
    // Three appointments still booked: the two that could not move kept their slots.
    expect(rows.map((r) => r.status)).toEqual(['booked', 'booked', 'booked']);
    expect(rows.filter((r) => new Date(r.starts_at).getUTCHours() === 15)).toHaveLength(1);
  });

  it('replies.preview answers like the agent would, with no side effects; an unknown agent is 404', async () => {
    const tenant = 'ten_preview';
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: [{ question: 'Do you deliver?', answer: 'Yes, within 10 km.' }] }));
    const preview = await h.kafka.rpc.request('replies.preview', { tenant_id: tenant, agent: 'bakery', message: 'do u deliver', from: null });
    expect(preview).toEqual({
      reply: 'Hello from bakery!\n\nYes, within 10 km.',
      skill: 'faq_responder',
      handoff: false,
      language: 'en',
      sources: [{ type: 'faq', id: 'faq-1', title: 'Do you deliver?', excerpt: 'Yes, within 10 km.', score: expect.any(Number) }],
      confidence: expect.any(Number),
    });
    // CONTRACT §20: how sure the engine is, 0..1, per source and for the answer; sure of a FAQ that covers the question
    expect(preview.confidence).toBeGreaterThanOrEqual(0.9);
    expect(preview.sources[0].score).toBe(preview.confidence);
    const human = await h.kafka.rpc.request('replies.preview', { tenant_id: tenant, agent: 'bakery', message: 'let me talk to a human', from: '+14155550100' });
    expect(human).toMatchObject({ handoff: true, language: 'en', sources: [], confidence: null });
    const spanish = await h.kafka.rpc.request('replies.preview', { tenant_id: tenant, agent: 'bakery', message: 'hola, quiero hablar con una persona', from: null });
    expect(spanish).toMatchObject({ handoff: true, language: 'es', sources: [] });
    expect(spanish.reply).toContain('Te paso con una persona de nuestro equipo');

    const counts: { n: string }[] = await h.sql.query(
      `SELECT (SELECT count(*) FROM conversations WHERE tenant_id = $1) + (SELECT count(*) FROM processed_messages WHERE tenant_id = $1)
            + (SELECT count(*) FROM leads WHERE tenant_id = $1) + (SELECT count(*) FROM appointments WHERE tenant_id = $1) AS n`,
      [tenant],
    );
    expect(Number(counts[0].n)).toBe(0);
    expect(out.outbound.messages.some((m) => m.value.tenant_id === tenant)).toBe(false);
    await expect(h.kafka.rpc.request('replies.preview', { tenant_id: 'ten_other', agent: 'bakery', message: 'hi', from: null })).rejects.toMatchObject({
      problem: { status: 404 },
    });
  });
});
