import { Topics, newId, type ConversationRatedEvent, type MessageInboundData } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/**
 * CSAT (CONTRACT.md §18) over real Kafka and PostgreSQL: closing a conversation asks its customer once, inside the
 * 24-hour window only (a list of five on WhatsApp, a question in words on SMS); the answer rates that conversation,
 * is thanked, announced once as conversation.rated, and starts no new conversation.
 */
describe('responder-service: CSAT', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let rated: TopicProbe<ConversationRatedEvent>;
  const tenant = newId('ten');

  beforeAll(async () => {
    h = await ResponderHarness.start('csat');
    out = await h.probeOutputs();
    rated = await h.kafka.probe<ConversationRatedEvent>(Topics.ConversationRated);
    await h.announceAgent(tenant, agentRecord('support'));
  });

  afterAll(async () => {
    await rated?.stop();
    await h?.close();
  });

  const rpc = () => h.kafka.rpc;

  async function say(customer: string, text: string, extra: Partial<MessageInboundData> = {}): Promise<MessageInboundData> {
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text, ...extra });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    return event.data;
  }

  async function conversationsOf(customer: string): Promise<{ id: string; state: string }[]> {
    return h.sql.query('SELECT id, state FROM conversations WHERE tenant_id = $1 AND customer = $2 ORDER BY id', [tenant, customer]);
  }

  const close = (id: string) => rpc().request('conversations.update', { tenant_id: tenant, id, change: { state: 'closed' }, actor: { type: 'api' } });
  /** What the agent sent the customer on its own (not in reply to a message): the rating question here. */
  const questionsTo = (customer: string) => out.outbound.messages.filter((m) => m.value.data.to === customer && m.value.data.origin === 'agent' && !m.value.data.in_reply_to);

  it('asks once on closing, takes the tapped answer into that conversation, thanks, and announces it once', async () => {
    const customer = phoneNumber();
    await say(customer, 'I want to talk to a person please');
    const [{ id }] = await conversationsOf(customer);
    await rpc().request('conversations.reply', { tenant_id: tenant, id, message: 'Sorted: your refund is on its way.', actor: { type: 'api' } });
    await close(id);
    const question = await pollUntil(() => questionsTo(customer)[0], { description: 'the rating question' });
    expect(question.value.data).toMatchObject({ origin: 'agent', channel: 'whatsapp', content: { type: 'interactive', interactive: { type: 'list', button: 'Rate' } } });
    // reopened and closed again: not asked twice
    await rpc().request('conversations.update', { tenant_id: tenant, id, change: { state: 'handed_off' }, actor: { type: 'api' } });
    await close(id);

    const answer = inboundEvent(tenant, { from: customer, to: BUSINESS, text: '4 · Good', type: 'interactive', interactive: { id: 'csat:4', title: '4 · Good' } });
    await h.deliverInbound(answer);
    const event = await pollUntil(() => rated.messages.find((m) => m.value.data.conversation_id === id), { description: 'conversation.rated' });
    expect(event.value.data).toMatchObject({ score: 4, comment: null, customer, channel: 'whatsapp' });
    const received = await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === answer.data.message_id), { description: 'the answer received' });
    expect(received.value.data.agent_response).toBe('Thank you for your rating!');
    // a redelivery changes nothing and announces nothing again
    await h.deliverInbound(answer);
    const record = await rpc().request('conversations.get', { tenant_id: tenant, id, reader: null });
    expect(record).toMatchObject({ state: 'closed', rating: { score: 4, comment: null, rated_at: expect.any(String) } });
    expect(record.messages.slice(-2).map((m) => [m.role, m.text])).toEqual([
      ['customer', '4 · Good'],
      ['agent', 'Thank you for your rating!'],
    ]);
    expect(await conversationsOf(customer)).toEqual([{ id, state: 'closed' }]);
    expect(questionsTo(customer)).toHaveLength(1);
    // the next message starts a new conversation: the rating is given
    await say(customer, '5');
    expect((await conversationsOf(customer)).length).toBe(2);
    expect(rated.messages.filter((m) => m.value.data.conversation_id === id)).toHaveLength(1);
  });

  it('asks in words on SMS and takes a number for the answer', async () => {
    const customer = phoneNumber();
    await say(customer, 'I need a human', { channel: 'sms' });
    const [{ id }] = await conversationsOf(customer);
    await close(id);
    const question = await pollUntil(() => questionsTo(customer)[0], { description: 'the rating question' });
    expect(question.value.data.content).toEqual({ type: 'text', text: 'How would you rate the help you got today? Reply with a number from 1 (very poor) to 5 (excellent).' });
    await say(customer, '2', { channel: 'sms' });
    await pollUntil(() => rated.messages.find((m) => m.value.data.conversation_id === id && m.value.data.score === 2), { description: 'rated 2' });
  });

  it('does not ask when the customer last wrote more than a day ago', async () => {
    const customer = phoneNumber();
    await say(customer, 'I want to talk to a person please');
    const [{ id }] = await conversationsOf(customer);
    await h.sql.query(`UPDATE conversations SET last_message_at = now() - interval '25 hours' WHERE id = $1`, [id]);
    const closed = await close(id);
    expect(closed.state).toBe('closed');
    const [row]: { csat_requested_at: Date | null }[] = await h.sql.query('SELECT csat_requested_at FROM conversations WHERE id = $1', [id]);
    expect(row.csat_requested_at).toBeNull();
    expect(questionsTo(customer)).toHaveLength(0);
  });
});
