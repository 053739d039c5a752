import { Headers, Topics, newId, type MessageInboundEvent, type MessageOutboundEvent, type MessageReceivedEvent } from '@parley/contracts';
import type { ProbedMessage, TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { ResponderHarness, agentRecord, inboundEvent, phoneNumber } from '../test/responder-harness';
import { CONVERSATION_MEMORY } from '../conversations/conversations.service';

const HOUR = 60 * 60 * 1000;
const BUSINESS = '+4930000000';

describe('responder-service: replies to message.inbound over Kafka and PostgreSQL', () => {
  let h: ResponderHarness;
  let outbound: TopicProbe<MessageOutboundEvent>;
  let received: TopicProbe<MessageReceivedEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('responder');
    [outbound, received] = await Promise.all([
      h.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound),
      h.kafka.probe<MessageReceivedEvent>(Topics.MessageReceived),
    ]);
  });

  afterAll(async () => {
    await outbound?.stop();
    await received?.stop();
    await h?.close();
  });

  const receivedFor = (messageId: string): ProbedMessage<MessageReceivedEvent>[] => received.messages.filter((m) => m.value.data.message_id === messageId);
  const outboundFor = (messageId: string): ProbedMessage<MessageOutboundEvent>[] =>
    outbound.messages.filter((m) => m.value.data.in_reply_to?.includes(messageId));

  /** Delivers an inbound message and waits for its message.received. */
  async function converse(event: MessageInboundEvent, requestId?: string): Promise<MessageReceivedEvent> {
    await h.deliverInbound(event, requestId);
    const got = await pollUntil(() => receivedFor(event.data.message_id)[0], { description: `message.received of ${event.data.message_id}` });
    return got.value;
  }

  /**
   * Waits until everything delivered earlier on this conversation's key has been handled: a later message on the
   * same key (same partition, handled in order) has its message.received, and so its predecessors' events are out.
   */
  async function drain(tenantId: string, customer: string): Promise<void> {
    await converse(inboundEvent(tenantId, { from: customer, to: BUSINESS, text: 'marker' }));
  }

  it('replies to the customer from the business number, opening with the greeting, and reports it on message.received', async () => {
    const tenant = 'ten_reply';
    const customer = phoneNumber();
    const agent = agentRecord('bakery', { faqs: [{ question: 'What are your opening hours?', answer: 'We open at 8:00.' }] });
    await h.announceAgent(tenant, agent);

    const first = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'What are your opening hours?' });
    const event = await converse(first, 'req-first-reply');

    const [reply] = await pollUntil(() => outboundFor(first.data.message_id).length > 0 && outboundFor(first.data.message_id), { description: 'message.outbound' });
    expect(reply.key).toBe(`${tenant}:${customer}`);
    expect(reply.headers[Headers.RequestId]).toBe('req-first-reply');
    expect(reply.value).toMatchObject({ type: 'message.outbound', tenant_id: tenant });
    expect(reply.value.data).toMatchObject({
      channel: 'whatsapp',
      channel_id: first.data.channel_id,
      from: BUSINESS,
      to: customer,
      origin: 'agent',
      in_reply_to: [first.data.message_id],
      content: { type: 'text', text: `${agent.greeting}\n\nWe open at 8:00.` },
    });
    expect(reply.value.data.message_id).toMatch(/^msg_/);

    expect(event).toMatchObject({ type: 'message.received', tenant_id: tenant });
    expect(event.data).toEqual({
      event: 'message.received',
      channel: 'whatsapp',
      from: customer,
      message: 'What are your opening hours?',
      tenant_id: tenant,
      agent_response: `${agent.greeting}\n\nWe open at 8:00.`,
      message_id: first.data.message_id,
      reply_message_id: reply.value.data.message_id,
      agent: 'bakery',
      type: 'text',
      received_at: first.data.received_at,
    });
    expect(receivedFor(first.data.message_id)[0].key).toBe(`${tenant}:${customer}`);
    expect(receivedFor(first.data.message_id)[0].headers[Headers.RequestId]).toBe('req-first-reply');

    const second = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'And something else?' });
    const next = await converse(second);
    expect(next.data.agent_response).not.toBeNull();
    expect(next.data.agent_response).not.toContain(agent.greeting);
    await drain(tenant, customer);
    expect(outboundFor(second.data.message_id)).toHaveLength(1);
    expect(outboundFor(second.data.message_id)[0].value.data.content).toEqual({ type: 'text', text: next.data.agent_response });
  });

  it('replies exactly once to an inbound event delivered twice', async () => {
    const tenant = 'ten_dup';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));

    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'Hi there' });
    await h.deliverInbound(event);
    await h.deliverInbound(event);
    await drain(tenant, customer);

    expect(receivedFor(event.data.message_id)).toHaveLength(1);
    expect(outboundFor(event.data.message_id)).toHaveLength(1);
    const turns: { n: string }[] = await h.sql.query(
      `SELECT count(*) AS n FROM conversation_messages m JOIN processed_messages p ON p.conversation_id = m.conversation_id
        WHERE p.inbound_message_id = $1 AND m.message_id IN ($1, p.reply_message_id)`,
      [event.data.message_id],
    );
    expect(Number(turns[0].n)).toBe(2);
  });

  it('after a crash between commit and publish, a redelivery republishes the stored events with the same ids and replies no more', async () => {
    const tenant = 'ten_crash';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'Hello?' });
    await converse(event);
    await pollUntil(() => outboundFor(event.data.message_id).length === 1, { description: 'the first reply' });

    // The state a crash right after the commit leaves behind: handled, but not known to be published (once the
    // acknowledgement is written, which lags a little: PublishedMarks).
    await pollUntil(
      async () => {
        const rows: unknown[] = await h.sql.query('SELECT 1 FROM processed_messages WHERE inbound_message_id = $1 AND published_at IS NOT NULL', [event.data.message_id]);
        return rows.length > 0;
      },
      { description: 'the first reply marked published' },
    );
    await h.sql.query('UPDATE processed_messages SET published_at = NULL WHERE inbound_message_id = $1', [event.data.message_id]);
    await h.deliverInbound(event);
    await drain(tenant, customer);

    const replies = outboundFor(event.data.message_id);
    const events = receivedFor(event.data.message_id);
    expect(replies).toHaveLength(2);
    expect(events).toHaveLength(2);
    expect(replies[1].value).toEqual(replies[0].value);
    expect(events[1].value).toEqual(events[0].value);
    const agentTurns: { n: string }[] = await h.sql.query(`SELECT count(*) AS n FROM conversation_messages WHERE message_id = $1`, [
      replies[0].value.data.message_id,
    ]);
    expect(Number(agentTurns[0].n)).toBe(1);
  });

  it('stays silent without an agent: message.received with agent_response null and no message.outbound', async () => {
    const tenant = 'ten_noagent';
    const customer = phoneNumber();
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'Anyone there?' });
    const got = await converse(event);
    expect(got.data).toMatchObject({ agent_response: null, reply_message_id: null, agent: null, message: 'Anyone there?', message_id: event.data.message_id });
    await drain(tenant, customer);
    expect(outboundFor(event.data.message_id)).toHaveLength(0);
  });

  it("lets the channel's agent answer over the tenant's oldest one, and the oldest otherwise", async () => {
    const tenant = 'ten_pick';
    const oldest = agentRecord('oldest', { created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' });
    const sales = agentRecord('sales', { created_at: '2025-03-01T00:00:00.000Z', updated_at: '2025-03-01T00:00:00.000Z' });
    await h.announceAgent(tenant, sales);
    await h.announceAgent(tenant, oldest);

    const viaChannel = await converse(inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'hello', channel_agent: 'sales' }));
    expect(viaChannel.data.agent).toBe('sales');
    expect(viaChannel.data.agent_response?.startsWith(sales.greeting)).toBe(true);

    const unassigned = await converse(inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'hello' }));
    expect(unassigned.data.agent).toBe('oldest');
    expect(unassigned.data.agent_response?.startsWith(oldest.greeting)).toBe(true);

    const unknown = await converse(inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'hello', channel_agent: 'nobody' }));
    expect(unknown.data.agent).toBe('oldest');
  });

  it('stops replying once the agent is deleted on agent.changed', async () => {
    const tenant = 'ten_delete';
    const customer = phoneNumber();
    const temp = agentRecord('temp');
    await h.announceAgent(tenant, temp);
    expect((await converse(inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hi' }))).data.agent).toBe('temp');

    await h.announceDeletion(tenant, temp);
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'still there?' });
    expect((await converse(event)).data).toMatchObject({ agent_response: null, reply_message_id: null, agent: null });
    await drain(tenant, customer);
    expect(outboundFor(event.data.message_id)).toHaveLength(0);
  });

  it('does not answer a message written more than 24 h before it arrived', async () => {
    const tenant = 'ten_stale';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const now = Date.now();
    const event = inboundEvent(tenant, {
      from: customer,
      to: BUSINESS,
      text: 'sent long ago',
      sent_at: new Date(now - 25 * HOUR).toISOString(),
      received_at: new Date(now).toISOString(),
    });
    expect((await converse(event)).data).toMatchObject({ agent_response: null, reply_message_id: null });
    await drain(tenant, customer);
    expect(outboundFor(event.data.message_id)).toHaveLength(0);
  });

  it('does not answer in a handed-off conversation', async () => {
    const tenant = 'ten_handoff';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const first = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hello' });
    expect((await converse(first)).data.agent_response).not.toBeNull();

    await h.sql.query(`UPDATE conversations SET state = 'handed_off' WHERE tenant_id = $1 AND customer = $2`, [tenant, customer]);
    const later = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'a human please' });
    expect((await converse(later)).data.agent_response).toBeNull();
  });

  it('starts a new conversation, greeted again, after 24 h of silence', async () => {
    const tenant = 'ten_silence';
    const customer = phoneNumber();
    const agent = agentRecord('support');
    await h.announceAgent(tenant, agent);
    const twoDaysAgo = new Date(Date.now() - 48 * HOUR).toISOString();

    const old = await converse(inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hi', sent_at: twoDaysAgo, received_at: twoDaysAgo }));
    expect(old.data.agent_response?.startsWith(agent.greeting)).toBe(true);
    const fresh = await converse(inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hi again' }));
    expect(fresh.data.agent_response?.startsWith(agent.greeting)).toBe(true);

    const conversations: { state: string }[] = await h.sql.query('SELECT state FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenant, customer]);
    expect(conversations).toEqual([{ state: 'active' }, { state: 'active' }]);
  });

  it(`keeps the whole thread of a conversation (replies read its last ${CONVERSATION_MEMORY} turns)`, async () => {
    const tenant = 'ten_memory';
    const customer = phoneNumber();
    // No skills: every message gets a plain acknowledgement (an FAQ agent would hand these unanswerable ones to a person).
    await h.announceAgent(tenant, agentRecord('support', { skills: [] }));
    const events = Array.from({ length: 30 }, (_, i) => inboundEvent(tenant, { from: customer, to: BUSINESS, text: `message ${i}` }));
    // One at a time: sent all at once they would be a burst, answered together (see the burst test).
    for (const event of events) await converse(event);

    const rows: { message_id: string; role: string }[] = await h.sql.query(
      `SELECT m.message_id, m.role FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = $1 AND c.customer = $2 ORDER BY m.id`,
      [tenant, customer],
    );
    expect(rows).toHaveLength(events.length * 2);
    expect(rows[rows.length - 2]).toEqual({ message_id: events[events.length - 1].data.message_id, role: 'customer' });
    expect(rows[rows.length - 1].role).toBe('agent');
    // Turns beyond the memory do not make the agent greet again.
    const greeted = received.messages.filter((m) => events.some((e) => e.data.message_id === m.value.data.message_id) && m.value.data.agent_response?.startsWith('Hello from support!'));
    expect(greeted).toHaveLength(1);
  });

  it('answers non-text messages with their text stand-in', async () => {
    const tenant = 'ten_image';
    await h.announceAgent(tenant, agentRecord('support'));
    const event = inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: '[image] our shop front', type: 'image', message_id: newId('msg') });
    const got = await converse(event);
    expect(got.data).toMatchObject({ type: 'image', message: '[image] our shop front' });
    expect(got.data.agent_response).not.toBeNull();
  });

  it('answers messages that arrive while a reply is being computed together, with one reply each of their events carries', async () => {
    const tenant = 'ten_burst';
    const customer = phoneNumber();
    const open: [string, string][] = [['08:00', '20:00']];
    await h.announceAgent(
      tenant,
      agentRecord('clinic', {
        skills: ['appointment_booking'],
        booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: { mon: open, tue: open, wed: open, thu: open, fri: open, sat: open, sun: open } },
      }),
    );
    // Hold the conversation's lock, so the reply to the first message is stuck being committed.
    const holder = h.sql.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['cnv', tenant, BUSINESS, customer])]);
    const first = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'hi' });
    await h.deliverInbound(first);
    await pollUntil(
      async () => {
        const waiting: unknown[] = await h.sql.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
        return waiting.length > 0;
      },
      { description: 'the first reply waiting for the conversation lock' },
    );
    const second = inboundEvent(tenant, { from: customer, to: BUSINESS, text: "I'd like to book an appointment" });
    const third = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'tomorrow at 10am please' });
    await h.deliverInbound(second);
    await h.deliverInbound(third); // acknowledged by the broker: both wait in the partition
    await holder.commitTransaction();
    await holder.release();

    // The lone first message was answered on its own, at once.
    const answerToFirst = await pollUntil(() => receivedFor(first.data.message_id)[0]);
    expect(answerToFirst.value.data.agent_response).toContain('Hello from clinic!');
    const firstReply = await pollUntil(() => outboundFor(first.data.message_id)[0], { description: 'the reply to the first message' });
    expect(firstReply.value.data.in_reply_to).toEqual([first.data.message_id]);

    // The two that arrived meanwhile: one reply that read both, carried by both events.
    const [toSecond, toThird] = await Promise.all([second, third].map((e) => pollUntil(() => receivedFor(e.data.message_id)[0])));
    expect(toSecond.value.data.agent_response).toMatch(/^Shall I book \w{3} \d{1,2} \w{3}, 10:00 \(UTC\) for you\? Reply yes to confirm\.$/);
    expect(toThird.value.data.agent_response).toBe(toSecond.value.data.agent_response);
    expect(toThird.value.data.reply_message_id).toBe(toSecond.value.data.reply_message_id);
    await drain(tenant, customer);
    const replies = outbound.messages.filter((m) => m.value.data.to === customer && m.value.data.in_reply_to?.includes(second.data.message_id));
    expect(replies.map((m) => m.value.data.in_reply_to)).toEqual([[second.data.message_id, third.data.message_id]]);
    expect(replies[0].value.data.message_id).toBe(toThird.value.data.reply_message_id);
  });
});
