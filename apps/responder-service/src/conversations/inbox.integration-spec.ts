import {
  ProblemTypes,
  Topics,
  conversationKey,
  newId,
  type ConversationUpdatedEvent,
  type MessageInboundEvent,
  type MessageOutboundData,
  type MessageOutboundEvent,
} from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const MEMBER = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K';
const OTHER_MEMBER = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9M';

/** The inbox (CONTRACT.md §12) over real Kafka and PostgreSQL: handoff, unread, a person's replies, notes, filters. */
describe('responder-service: the inbox', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let updates: TopicProbe<ConversationUpdatedEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('inbox');
    out = await h.probeOutputs();
    updates = await h.kafka.probe<ConversationUpdatedEvent>(Topics.ConversationUpdated);
  });

  afterAll(async () => {
    await updates?.stop();
    await h?.close();
  });

  const rpc = () => h.kafka.rpc;
  const receivedFor = (id: string) => out.received.messages.find((m) => m.value.data.message_id === id);

  /** One customer message; the agent's answer as message.received reports it (null: silent). */
  async function say(tenant: string, customer: string, text: string, extra: Partial<MessageInboundEvent['data']> = {}): Promise<string | null> {
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text, ...extra });
    await h.deliverInbound(event);
    const got = await pollUntil(() => receivedFor(event.data.message_id), { description: `message.received of "${text}"` });
    return got.value.data.agent_response;
  }

  async function conversationOf(tenant: string, customer: string): Promise<string> {
    const rows: { id: string }[] = await h.sql.query('SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2 ORDER BY id DESC', [tenant, customer]);
    return rows[0].id;
  }

  it('keeps a customer\'s photo and tapped reply in the thread with their fields (CONTRACT.md §13)', async () => {
    const tenant = 'ten_inbox_media';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const media = { id: 'med_01JD8Z9D1B2C3D4E5F6G7H8J9K', mime_type: 'image/jpeg', size: 2048, caption: 'my receipt' };
    await say(tenant, customer, '[image] my receipt', { type: 'image', media });
    await say(tenant, customer, 'Yes please', { type: 'interactive', interactive: { id: 'yes', title: 'Yes please' } });

    const record = await rpc().request('conversations.get', { tenant_id: tenant, id: await conversationOf(tenant, customer), reader: null });
    const customers = record.messages.filter((m) => m.role === 'customer');
    expect(customers[0]).toMatchObject({ type: 'image', media, text: '[image] my receipt' });
    expect(customers[1]).toMatchObject({ type: 'interactive', interactive: { id: 'yes', title: 'Yes please' } });
    expect(record.messages.filter((m) => m.role === 'agent').every((m) => m.media === undefined && m.type === undefined)).toBe(true);
  });

  /** A send as the gateway publishes it (`POST /v1/send`): origin `api`, from the default number, `author` when a member sent it. */
  async function sendThroughApi(
    tenant: string,
    customer: string,
    content: MessageOutboundData['content'],
    author?: MessageOutboundData['author'],
    acceptedAt = new Date(),
  ): Promise<MessageOutboundEvent> {
    const data: MessageOutboundData = { message_id: newId('msg'), channel: 'whatsapp', from: null, to: customer, content, origin: 'api', accepted_at: acceptedAt.toISOString(), ...(author ? { author } : {}) };
    const event = EventPublisher.envelope(Topics.MessageOutbound, tenant, data);
    await h.kafka.publisher.publishEvent(event, conversationKey(tenant, customer));
    return event;
  }

  async function threadWith(tenant: string, id: string, messageId: string) {
    return pollUntil(
      async () => {
        const record = await rpc().request('conversations.get', { tenant_id: tenant, id, reader: null });
        return record.messages.some((m) => m.message_id === messageId) ? record : undefined;
      },
      { description: `${messageId} in the thread` },
    );
  }

  it('keeps what was sent through the API in the thread with its fields: a location, buttons, a member\'s template (CONTRACT.md §13)', async () => {
    const tenant = 'ten_inbox_sends';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const photo = { id: 'med_01JD8Z9D1B2C3D4E5F6G7H8J9P', mime_type: 'image/png', size: 4096, caption: null };
    await say(tenant, customer, '[image]', { type: 'image', media: photo });
    const id = await conversationOf(tenant, customer);

    // A program's location: kept as a person's message by `api`; the agent keeps answering.
    const location = { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Alexanderplatz 1, Berlin' };
    const located = await sendThroughApi(tenant, customer, { type: 'location', location });
    let record = await threadWith(tenant, id, located.data.message_id);
    expect(record.messages.find((m) => m.role === 'customer')).toMatchObject({ type: 'image', media: photo });
    expect(record.messages.find((m) => m.message_id === located.data.message_id)).toMatchObject({
      role: 'member',
      author: { type: 'api' },
      type: 'location',
      location,
      text: '[location] Office',
    });
    expect(record).toMatchObject({ state: 'active', last_message: { text: '[location] Office', author: { type: 'api' } } });

    // A member's template (the inbox's closed window), delivered twice: kept once, and it answers like their reply.
    const template = await sendThroughApi(tenant, customer, { type: 'template', template: { name: 'order_update', language: { code: 'en_US' } } }, { type: 'member', id: MEMBER });
    await h.kafka.publisher.publishEvent(template, conversationKey(tenant, customer));
    // Same key, so handled after both deliveries of the template.
    const buttons = await sendThroughApi(tenant, customer, {
      type: 'interactive',
      interactive: { type: 'button', body: 'Did it arrive?', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'Not yet' }] },
    });
    record = await threadWith(tenant, id, buttons.data.message_id);
    const templates = record.messages.filter((m) => m.message_id === template.data.message_id);
    expect(templates).toEqual([expect.objectContaining({ role: 'member', author: { type: 'member', id: MEMBER }, type: 'template', template: { name: 'order_update', language: 'en_US' } })]);
    expect(record.messages.at(-1)).toMatchObject({ type: 'interactive', text: 'Did it arrive?', options: ['Yes', 'Not yet'], author: { type: 'api' } });
    expect(record.state).toBe('handed_off');
    const handoff = await pollUntil(() => out.handoffs.messages.find((m) => m.value.data.conversation_id === id), { description: 'conversation.handoff' });
    expect(handoff.value.data.reason).toBe('member_replied');
    // Agent replies were never taken for API sends: one agent turn (the greeting), as before.
    expect(record.messages.filter((m) => m.role === 'agent')).toHaveLength(1);

    // A send delivered late (accepted an hour ago) joins the thread without becoming its last message.
    const late = await sendThroughApi(tenant, customer, { type: 'text', text: 'An old notice' }, undefined, new Date(Date.now() - 3_600_000));
    record = await threadWith(tenant, id, late.data.message_id);
    expect(record.messages.find((m) => m.message_id === late.data.message_id)).toMatchObject({ text: 'An old notice', author: { type: 'api' } });
    expect(record.last_message).toMatchObject({ text: 'Did it arrive?' });
  });

  it('hands off once when the customer asks for a person: told once, silent after, unread counted, conversation.handoff with the inbox link', async () => {
    const tenant = 'ten_inbox_handoff';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));

    expect(await say(tenant, customer, 'I want to talk to a person please', { contact_name: 'Maria WhatsApp' })).toContain('passing you to a member of our team');
    const id = await conversationOf(tenant, customer);
    expect(await say(tenant, customer, 'hello?')).toBeNull();
    expect(await say(tenant, customer, 'I want to speak to a human!')).toBeNull();

    const record = await rpc().request('conversations.get', { tenant_id: tenant, id, reader: null });
    expect(record).toMatchObject({ state: 'handed_off', unread: 3, contact_name: 'Maria WhatsApp', customer, channel: 'whatsapp', assignee: null });
    expect(record.last_message).toMatchObject({ text: 'I want to speak to a human!', author: { type: 'customer' } });
    expect(Date.parse(record.window_expires_at) - Date.parse(record.last_message_at)).toBe(24 * 60 * 60 * 1000);
    expect(record.messages.map((m) => m.author)).toEqual([{ type: 'customer' }, { type: 'agent', name: 'support' }, { type: 'customer' }, { type: 'customer' }]);
    // The customer was told once: one reply in the whole conversation.
    expect(out.outbound.messages.filter((m) => m.value.data.to === customer)).toHaveLength(1);

    const handoffs = out.handoffs.messages.filter((m) => m.value.data.conversation_id === id);
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0].value.data).toMatchObject({ reason: 'customer_asked_for_human', dashboard_url: `http://127.0.0.1:3000/dashboard/inbox/${id}`, contact_name: 'Maria WhatsApp' });

    // The dashboards heard of each message, the latest with the unread count.
    await pollUntil(() => updates.messages.some((m) => m.value.data.conversation.id === id && m.value.data.conversation.unread === 3), {
      description: 'conversation.updated with unread 3',
    });

    // A program reading it leaves it unread; a member opening it reads it.
    expect((await rpc().request('conversations.get', { tenant_id: tenant, id, reader: null })).unread).toBe(3);
    expect((await rpc().request('conversations.get', { tenant_id: tenant, id, reader: MEMBER })).unread).toBe(0);
    await pollUntil(() => updates.messages.some((m) => m.value.data.conversation.id === id && m.value.data.change === 'read'), { description: 'conversation.updated read' });
    expect(await say(tenant, customer, 'still there?')).toBeNull();
    expect((await rpc().request('conversations.get', { tenant_id: tenant, id, reader: null })).unread).toBe(1);
  });

  it('a member replies through message.outbound, notes never reach the customer, give back lets the agent answer again', async () => {
    const tenant = 'ten_inbox_reply';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support', { faqs: [{ question: 'What are your opening hours?', answer: 'We open at 8:00.' }] }));
    expect(await say(tenant, customer, 'what are your opening hours?')).toContain('We open at 8:00.');
    const id = await conversationOf(tenant, customer);

    const note = await rpc().request('conversations.note', { tenant_id: tenant, id, text: 'VIP, be nice', actor: { type: 'member', id: MEMBER } });
    expect(note).toMatchObject({ id: expect.stringMatching(/^nte_/), conversation_id: id, text: 'VIP, be nice', mentions: [], author: { type: 'member', id: MEMBER } });
    // A note mentioning a member: they find the conversation among those mentioning them.
    const asked = await rpc().request('conversations.note', { tenant_id: tenant, id, text: `@${OTHER_MEMBER} can you check this order? cc @${OTHER_MEMBER}`, actor: { type: 'member', id: MEMBER } });
    expect(asked.mentions).toEqual([OTHER_MEMBER]);
    const mentioning = (who: string) =>
      rpc().request('conversations.list', { tenant_id: tenant, limit: 10, cursor: null, state: null, assignee: null, channel: null, q: null, mentioned: who }).then((page) => page.data.map((c) => c.id));
    expect(await mentioning(OTHER_MEMBER)).toEqual([id]);
    expect(await mentioning(MEMBER)).toEqual([]);

    // Replying to an active conversation hands it off.
    const reply = await rpc().request('conversations.reply', { tenant_id: tenant, id, message: 'Hi, Tom here from the shop.', actor: { type: 'member', id: MEMBER } });
    expect(reply).toMatchObject({ role: 'member', author: { type: 'member', id: MEMBER }, text: 'Hi, Tom here from the shop.' });
    const sent = await pollUntil(() => out.outbound.messages.find((m) => m.value.data.message_id === reply.message_id), { description: 'the member reply on message.outbound' });
    expect(sent.value.data).toMatchObject({ to: customer, from: BUSINESS, content: { type: 'text', text: 'Hi, Tom here from the shop.' }, author: { type: 'member', id: MEMBER } });
    expect(out.outbound.messages.filter((m) => m.value.data.to === customer).map((m) => m.value.data.content)).not.toContainEqual(expect.objectContaining({ text: 'VIP, be nice' }));
    const handoff = await pollUntil(() => out.handoffs.messages.find((m) => m.value.data.conversation_id === id), { description: 'conversation.handoff' });
    expect(handoff.value.data.reason).toBe('member_replied');

    expect(await say(tenant, customer, 'thanks Tom, what about Sunday?')).toBeNull();
    const thread = await rpc().request('conversations.get', { tenant_id: tenant, id, reader: MEMBER });
    expect(thread.messages.map((m) => [m.role, m.author])).toEqual([
      ['customer', { type: 'customer' }],
      ['agent', { type: 'agent', name: 'support' }],
      ['member', { type: 'member', id: MEMBER }],
      ['customer', { type: 'customer' }],
    ]);
    expect(thread.notes.map((n) => n.mentions)).toEqual([[], [OTHER_MEMBER]]);
    expect(thread.notes[0].text).toBe('VIP, be nice');

    // Assign, then give back: the agent answers the next message.
    expect(await rpc().request('conversations.update', { tenant_id: tenant, id, change: { assignee: OTHER_MEMBER }, actor: { type: 'api' } })).toMatchObject({ assignee: OTHER_MEMBER, state: 'handed_off' });
    expect(await rpc().request('conversations.update', { tenant_id: tenant, id, change: { state: 'active' }, actor: { type: 'api' } })).toMatchObject({ state: 'active' });
    expect(await say(tenant, customer, 'what are your opening hours?')).toContain('We open at 8:00.');

    // Take over by PATCH: a handoff event, and the agent is silent again.
    await rpc().request('conversations.update', { tenant_id: tenant, id, change: { state: 'handed_off' }, actor: { type: 'member', id: MEMBER } });
    await pollUntil(() => out.handoffs.messages.some((m) => m.value.data.conversation_id === id && m.value.data.reason === 'member_took_over'), { description: 'take-over handoff' });
    expect(await say(tenant, customer, 'what are your opening hours?')).toBeNull();
  });

  it('close: the next customer message starts a new conversation; a reply to a closed one or, on WhatsApp only, outside the 24 h window is refused', async () => {
    const tenant = 'ten_inbox_close';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    await say(tenant, customer, 'hi');
    const id = await conversationOf(tenant, customer);
    expect(await rpc().request('conversations.update', { tenant_id: tenant, id, change: { state: 'closed' }, actor: { type: 'api' } })).toMatchObject({ state: 'closed' });
    await expect(rpc().request('conversations.reply', { tenant_id: tenant, id, message: 'hello', actor: { type: 'api' } })).rejects.toMatchObject({ problem: { status: 409 } });
    expect(await say(tenant, customer, 'hi again')).toContain('Hello from support!');
    expect(await conversationOf(tenant, customer)).not.toBe(id);

    const late = phoneNumber();
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await say(tenant, late, 'an old message', { sent_at: dayAgo, received_at: dayAgo });
    const old = await conversationOf(tenant, late);
    await expect(rpc().request('conversations.reply', { tenant_id: tenant, id: old, message: 'sorry for the wait', actor: { type: 'api' } })).rejects.toMatchObject({
      problem: { status: 409, type: ProblemTypes.windowClosed },
    });

    // The window is WhatsApp's: a mail written a day ago is still answered by a person.
    const mailer = `late-${phoneNumber().slice(1)}@example.com`;
    await say(tenant, mailer, 'an old mail', { channel: 'email', channel_id: 'chn_01JCHANNEL0000000000EMAIL0', sent_at: dayAgo, received_at: dayAgo });
    const mail = await conversationOf(tenant, mailer);
    expect(await rpc().request('conversations.reply', { tenant_id: tenant, id: mail, message: 'sorry for the wait', actor: { type: 'api' } })).toMatchObject({
      role: 'member',
      text: 'sorry for the wait',
    });
  });

  it('keeps the channel a customer wrote on: the inbox shows and filters it, a person answers on it, the handoff names it (CONTRACT.md §17)', async () => {
    const tenant = 'ten_inbox_channels';
    await h.announceAgent(tenant, agentRecord('support'));
    const [texter, whatsapper] = [phoneNumber(), phoneNumber()];
    const SMS_CHANNEL = 'chn_01JCHANNEL00000000000SMS00';
    await say(tenant, texter, 'are you open on sunday?', { channel: 'sms', channel_id: SMS_CHANNEL, provider_message_id: `SM${newId('msg')}` });
    await say(tenant, whatsapper, 'do you deliver?');
    const [smsId, whatsappId] = [await conversationOf(tenant, texter), await conversationOf(tenant, whatsapper)];

    const list = async (filter: Record<string, string>) => (await rpc().request('conversations.list', { tenant_id: tenant, limit: 50, cursor: null, ...filter })).data;
    expect((await list({})).map((c) => [c.id, c.channel])).toEqual([
      [whatsappId, 'whatsapp'],
      [smsId, 'sms'],
    ]);
    expect((await list({ channel: 'sms' })).map((c) => c.id)).toEqual([smsId]);
    expect((await list({ channel: 'whatsapp' })).map((c) => c.id)).toEqual([whatsappId]);
    expect(await list({ channel: 'email' })).toEqual([]);
    expect((await list({ channel: SMS_CHANNEL })).map((c) => c.id)).toEqual([smsId]);

    // A person's reply goes out by SMS on the conversation's channel, and the handoff it causes says so.
    const reply = await rpc().request('conversations.reply', { tenant_id: tenant, id: smsId, message: 'Yes, 10 to 4.', actor: { type: 'member', id: MEMBER } });
    const sent = await pollUntil(() => out.outbound.messages.find((m) => m.value.data.message_id === reply.message_id), { description: 'the SMS reply on message.outbound' });
    expect(sent.value.data).toMatchObject({ channel: 'sms', channel_id: SMS_CHANNEL, to: texter });
    const handoff = await pollUntil(() => out.handoffs.messages.find((m) => m.value.data.conversation_id === smsId), { description: 'conversation.handoff of the SMS' });
    expect(handoff.value).toMatchObject({ version: 2, data: { channel: 'sms' } });
    const updated = await pollUntil(() => updates.messages.find((m) => m.value.data.conversation.id === smsId), { description: 'conversation.updated of the SMS' });
    expect(updated.value.data.conversation.channel).toBe('sms');
  });

  it('lists with filters and search, and hides other tenants’ conversations', async () => {
    const tenant = 'ten_inbox_list';
    await h.announceAgent(tenant, agentRecord('support'));
    // Fixed numbers: a random one holding "100" would be found by the search for "100%" below (a contact's number
    // matches a query it contains), which must find nothing.
    const [maria, bob] = ['+14155550123', '+15550004242'];
    await say(tenant, maria, 'I want to talk to a person', { contact_name: 'Maria Lopez' });
    await say(tenant, bob, 'do you sell blue widgets?');
    const [mariaId, bobId] = [await conversationOf(tenant, maria), await conversationOf(tenant, bob)];
    await rpc().request('conversations.update', { tenant_id: tenant, id: bobId, change: { assignee: MEMBER }, actor: { type: 'api' } });

    const ids = async (filter: Record<string, string>) =>
      (await rpc().request('conversations.list', { tenant_id: tenant, limit: 50, cursor: null, ...filter })).data.map((c) => c.id);
    expect(await ids({})).toEqual([bobId, mariaId]);
    expect(await ids({ state: 'handed_off' })).toEqual([mariaId]);
    expect(await ids({ assignee: MEMBER })).toEqual([bobId]);
    expect(await ids({ assignee: 'none' })).toEqual([mariaId]);
    expect(await ids({ q: 'maria' })).toEqual([mariaId]);
    expect(await ids({ q: '(415) 555-0123' })).toEqual([mariaId]);
    expect(await ids({ q: 'blue widg' })).toEqual([bobId]); // what the customer wrote, whoever spoke last (inbox-search.integration-spec.ts)
    expect(await ids({ q: '100%' })).toEqual([]);
    expect(await ids({ channel: 'chn_01JCHANNEL0000000000000000' })).toEqual([bobId, mariaId]);
    expect(await ids({ channel: 'chn_01JCHANNEL0000000000000001' })).toEqual([]);

    const other = { tenant_id: 'ten_inbox_other', id: mariaId };
    expect((await rpc().request('conversations.list', { tenant_id: other.tenant_id, limit: 50, cursor: null })).data).toEqual([]);
    // All four are in flight at once, so each gets its expectation at once: awaited one after another, a reply
    // arriving before the earlier ones' would be an unhandled rejection and fail the test.
    const calls = [
      rpc().request('conversations.get', { ...other, reader: MEMBER }),
      rpc().request('conversations.update', { ...other, change: { state: 'closed' }, actor: { type: 'api' } }),
      rpc().request('conversations.reply', { ...other, message: 'hi', actor: { type: 'api' } }),
      rpc().request('conversations.note', { ...other, text: 'hi', actor: { type: 'api' } }),
    ];
    await Promise.all(calls.map((call) => expect(call).rejects.toMatchObject({ problem: { status: 404 } })));
    expect(out.outbound.messages.filter((m) => m.value.data.to === maria)).toHaveLength(1);
  });
});
