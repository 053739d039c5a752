import { Topics, conversationKey, newId, type MessageOutboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { ResponderHarness, agentRecord, inboundEvent, phoneNumber, BUSINESS, type ResponderOutputs } from '../test/responder-harness';

const MEMBER = 'usr_01JD8Z9D1B2C3D4E5F6G7H8J9K';
const DOOMED = 'this reply fails at commit';

/**
 * The inbox's actions leave through the outbox (CONTRACT.md §12): a member's reply is recorded and sent both or
 * neither. The commit is made to fail after the reply was written (a deferred trigger raises at COMMIT): with the old
 * order (publish, then commit) the customer got a message the inbox never kept.
 */
describe('responder-service: inbox actions through the outbox', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;

  beforeAll(async () => {
    h = await ResponderHarness.start('inbox-outbox');
    out = await h.probeOutputs();
    await h.sql.query(`CREATE OR REPLACE FUNCTION fail_doomed_reply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.text = '${DOOMED}' THEN RAISE EXCEPTION 'commit refused for the test'; END IF; RETURN NEW; END $$`);
    await h.sql.query(`DROP TRIGGER IF EXISTS fail_doomed_reply ON conversation_messages`);
    await h.sql.query(`CREATE CONSTRAINT TRIGGER fail_doomed_reply AFTER INSERT ON conversation_messages
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fail_doomed_reply()`);
  });

  afterAll(async () => {
    await h?.sql.query(`DROP TRIGGER IF EXISTS fail_doomed_reply ON conversation_messages`);
    await h?.close();
  });

  it('a reply whose commit fails is never sent; the next one is sent once and leaves the outbox empty', async () => {
    const tenant = 'ten_inbox_outbox';
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const inbound = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'Hello?' });
    await h.deliverInbound(inbound);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === inbound.data.message_id), { description: 'the agent handled the hello' });
    const [{ id }]: { id: string }[] = await h.sql.query('SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenant, customer]);
    const actor = { type: 'member' as const, id: MEMBER };

    await expect(h.kafka.rpc.request('conversations.reply', { tenant_id: tenant, id, message: DOOMED, actor })).rejects.toBeTruthy();

    // Same conversation key, so the same partition: had the doomed reply been produced, it would arrive before this one.
    const kept = await h.kafka.rpc.request('conversations.reply', { tenant_id: tenant, id, message: 'Tom here, how can I help?', actor });
    await pollUntil(() => out.outbound.messages.find((m) => m.value.data.message_id === kept.message_id), { description: 'the kept reply on message.outbound' });
    const toCustomer = out.outbound.messages.filter((m) => m.value.data.to === customer && m.value.data.origin === 'api');
    expect(toCustomer.map((m) => m.value.data.content)).toEqual([{ type: 'text', text: 'Tom here, how can I help?' }]);

    const record = await h.kafka.rpc.request('conversations.get', { tenant_id: tenant, id, reader: null });
    expect(record.messages.map((m) => m.text)).not.toContain(DOOMED);
    expect(record).toMatchObject({ state: 'handed_off' });
    await pollUntil(async () => ((await h.sql.query('SELECT count(*)::int AS n FROM outbox'))[0].n === 0 ? true : undefined), { description: 'the outbox relayed' });
  });

  it('an event written but not yet published (the process died after the commit) is published by the relay', async () => {
    const tenant = 'ten_inbox_outbox_crash';
    const customer = phoneNumber();
    const data: MessageOutboundData = { message_id: newId('msg'), channel: 'whatsapp', from: BUSINESS, to: customer, content: { type: 'text', text: 'left behind' }, origin: 'api', accepted_at: new Date().toISOString() };
    const envelope = EventPublisher.envelope(Topics.MessageOutbound, tenant, data);
    // What a committed reply leaves when its process dies before the relay ran; no wake-up announces it.
    await h.sql.query(`INSERT INTO outbox (topic, key, envelope) VALUES ($1, $2, $3::jsonb)`, [Topics.MessageOutbound, conversationKey(tenant, customer), JSON.stringify(envelope)]);
    const sent = await pollUntil(() => out.outbound.messages.find((m) => m.value.data.message_id === data.message_id), { description: 'the left-behind reply published' });
    expect(sent.value.id).toBe(envelope.id);
  });
});
