import { Topics, newId, type ContactDeletedData, type ConversationUpdatedEvent, type MessageInboundEvent } from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/**
 * The inbox for a team (issue 32, CONTRACT.md §18) over real Kafka and PostgreSQL: search over what the customer and
 * the business wrote (full-text, in the conversation's language, accent-insensitive), the customer's own last message
 * for the preview, and the playground's conversations kept apart.
 */
describe('responder-service: inbox search, preview and the playground’s conversations', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let updates: TopicProbe<ConversationUpdatedEvent>;
  const tenant = 'ten_inbox_search';
  const rpc = () => h.kafka.rpc;

  beforeAll(async () => {
    h = await ResponderHarness.start('inboxsearch');
    out = await h.probeOutputs();
    updates = await h.kafka.probe<ConversationUpdatedEvent>(Topics.ConversationUpdated);
    await h.announceAgent(tenant, agentRecord('support'));
  });

  afterAll(async () => {
    await updates?.stop();
    await h?.close();
  });

  /** One customer message, handled (its message.received out); answers the conversation's id. */
  async function say(tenantId: string, customer: string, text: string, extra: Partial<MessageInboundEvent['data']> = {}): Promise<string> {
    const event = inboundEvent(tenantId, { from: customer, to: BUSINESS, text, ...extra });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    const [row]: { conversation_id: string }[] = await h.sql.query('SELECT conversation_id FROM conversation_messages WHERE message_id = $1', [event.data.message_id]);
    return row.conversation_id;
  }

  const found = async (q: string, tenantId = tenant, extra: Record<string, string> = {}) =>
    (await rpc().request('conversations.list', { tenant_id: tenantId, limit: 50, cursor: null, q, ...extra })).data.map((c) => c.id).sort();

  describe('search', () => {
    const ids: Record<'en' | 'es' | 'pt' | 'fr' | 'de' | 'kari', string> = { en: '', es: '', pt: '', fr: '', de: '', kari: '' };

    beforeAll(async () => {
      ids.en = await say(tenant, phoneNumber(), 'Hi, my batteries died after two weeks, is that covered?');
      ids.es = await say(tenant, phoneNumber(), 'Hola, ¿la garantía cubre la batería de mi bicicleta eléctrica?');
      ids.pt = await say(tenant, phoneNumber(), 'Olá, a bateria da minha bicicleta não carrega, vocês consertam?');
      ids.fr = await say(tenant, phoneNumber(), 'Bonjour, combien coûtent les réparations de freins pour un vélo ?');
      ids.de = await say(tenant, phoneNumber(), 'Hallo, meine Bremsen quietschen, können Sie das bitte reparieren?');
      const kari = phoneNumber();
      ids.kari = await say(tenant, kari, 'Hello, the chain of my bike keeps slipping', { contact_name: 'Kari Nordmann' });
      await say(tenant, kari, 'Is that under warranty?');
      // The business's words count too: a person's reply in Kari's conversation.
      await rpc().request('conversations.reply', { tenant_id: tenant, id: ids.kari, message: 'We will send a courier to collect it tomorrow.', actor: { type: 'api' } });
    });

    it('stores each message’s words in its conversation’s language', async () => {
      const configs: { conversation_id: string; search_config: string }[] = await h.sql.query(
        `SELECT conversation_id, search_config::text FROM conversation_messages WHERE tenant_id = $1 AND role = 'customer'`,
        [tenant],
      );
      const configOf = (id: string) => configs.find((c) => c.conversation_id === id)?.search_config;
      expect([ids.en, ids.es, ids.pt, ids.fr, ids.de].map(configOf)).toEqual(['english', 'spanish', 'portuguese', 'french', 'german']);
    });

    it('finds the word a customer wrote in another form: stems in five languages, accents and case ignored', async () => {
      expect(await found('battery')).toEqual([ids.en]); // "batteries": the English stem; not Spanish "batería"
      expect(await found('GARANTIAS')).toEqual([ids.es]); // "garantía"
      expect(await found('garantía')).toEqual([ids.es]);
      expect(await found('baterias')).toEqual([ids.es, ids.pt].sort()); // Spanish and Portuguese "batería"/"bateria"
      expect(await found('réparation')).toEqual([ids.fr]); // "réparations"
      expect(await found('reparation')).toEqual([ids.fr]);
      expect(await found('bremse')).toEqual([ids.de]); // "Bremsen"
    });

    it('finds what the business wrote, words spread over messages, a word’s beginning while typing, and the contact’s name', async () => {
      expect(await found('courier')).toEqual([ids.kari]);
      expect(await found('chain warranty')).toEqual([ids.kari]); // two customer messages
      expect(await found('chain courier')).toEqual([ids.kari]); // the customer's word and the business's
      expect(await found('warr')).toEqual([ids.kari]);
      expect(await found('nordmann')).toEqual([ids.kari]);
      expect(await found('kari collect')).toEqual([ids.kari]);
      expect(await found('chain helmet')).toEqual([]); // every word must be found
      expect(await found('helmet')).toEqual([]);
      expect(await found('!!! ***')).toEqual([]);
    });

    it('never finds another tenant’s conversations', async () => {
      const other = 'ten_inbox_search_other';
      await h.announceAgent(other, agentRecord('support'));
      const theirs = await say(other, phoneNumber(), 'My batteries are dead, warranty please');
      expect(await found('battery')).toEqual([ids.en]);
      expect(await found('battery', other)).toEqual([theirs]);
      expect(await found('chain', other)).toEqual([]);
    });
  });

  it('keeps the customer’s own last message for the preview, beside the last message of either side', async () => {
    const customer = phoneNumber();
    const id = await say(tenant, customer, 'Do you sell child seats for bikes?');
    await rpc().request('conversations.reply', { tenant_id: tenant, id, message: 'Yes, from 49 euros.', actor: { type: 'api' } });
    const [summary] = (await rpc().request('conversations.list', { tenant_id: tenant, limit: 1, cursor: null, q: 'child seats' })).data;
    expect(summary).toMatchObject({
      id,
      last_message: { text: 'Yes, from 49 euros.', author: { type: 'api' } },
      last_customer_message: { text: 'Do you sell child seats for bikes?', author: { type: 'customer' }, at: expect.stringMatching(/Z$/) },
      source: 'customer',
    });
    // The dashboards' live list gets it with every change.
    const event = await pollUntil(() => updates.messages.filter((m) => m.value.data.conversation.id === id).at(-1)?.value.data.conversation, { description: 'conversation.updated' });
    expect(event.last_customer_message).toMatchObject({ text: 'Do you sell child seats for bikes?' });
    await say(tenant, customer, 'And helmets?');
    const after = (await rpc().request('conversations.list', { tenant_id: tenant, limit: 1, cursor: null, q: 'helmets' })).data[0];
    expect(after.last_customer_message?.text).toBe('And helmets?');
  });

  describe('the playground’s conversations', () => {
    it('marks the conversations of a customer the playground plays, those to come and those there were, and filters by source', async () => {
      const played = phoneNumber();
      const before = await say(tenant, played, 'First try of the playground, about tyres');
      expect(await rpc().request('conversations.playground-customer', { tenant_id: tenant, customer: played })).toEqual({ customer: played, conversations: 1 });
      // Idempotent: nothing more to mark.
      expect(await rpc().request('conversations.playground-customer', { tenant_id: tenant, customer: played })).toEqual({ customer: played, conversations: 0 });

      const fresh = phoneNumber();
      await rpc().request('conversations.playground-customer', { tenant_id: tenant, customer: fresh });
      const started = await say(tenant, fresh, 'Testing the agent with a question about tyres');
      const real = await say(tenant, phoneNumber(), 'A real customer asking about tyres');

      expect(await found('tyres')).toEqual([before, started, real].sort());
      expect(await found('tyres', tenant, { source: 'playground' })).toEqual([before, started].sort());
      expect(await found('tyres', tenant, { source: 'customer' })).toEqual([real]);
      const summary = (await rpc().request('conversations.list', { tenant_id: tenant, limit: 50, cursor: null, source: 'playground', q: 'testing' })).data[0];
      expect(summary).toMatchObject({ id: started, source: 'playground' });
      const event = await pollUntil(() => updates.messages.find((m) => m.value.data.conversation.id === started)?.value.data.conversation, { description: 'its conversation.updated' });
      expect(event.source).toBe('playground');
      // Another tenant's playground is its own.
      expect((await rpc().request('conversations.list', { tenant_id: 'ten_inbox_search_other', limit: 50, cursor: null, source: 'playground' })).data).toEqual([]);

      await expect(rpc().request('conversations.playground-customer', { tenant_id: tenant, customer: 'not a number' })).rejects.toMatchObject({
        problem: { status: 400, errors: [{ field: 'customer', message: expect.any(String) }] },
      });
    });

    it('forgets a played number when its contact is erased', async () => {
      const played = phoneNumber();
      await rpc().request('conversations.playground-customer', { tenant_id: tenant, customer: played });
      const data: ContactDeletedData = { event: 'contact.deleted', tenant_id: tenant, contact_id: newId('ctc'), phone: played, email: null, at: new Date().toISOString() };
      await h.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.ContactDeleted, tenant, data), `${tenant}:${data.contact_id}`);
      await pollUntil(async () => ((await h.sql.query('SELECT 1 FROM playground_customers WHERE tenant_id = $1 AND customer = $2', [tenant, played])) as unknown[]).length === 0, {
        description: 'the played number erased',
      });
    });
  });
});
