import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type MessageOutboundData, type MessageOutboundEvent } from '@parley/contracts';
import { countStatements } from '@parley/service-kit';
import { ResponderHarness, phoneNumber } from '../test/responder-harness';
import { SentMessagesConsumer } from './sent-messages.consumer';


function apiSend(tenantId: string, to: string, origin: MessageOutboundData['origin'] = 'api'): MessageOutboundEvent {
  const data: MessageOutboundData = { message_id: newId('msg'), channel: 'whatsapp', from: null, to, content: { type: 'text', text: 'Your parcel is on its way' }, origin, accepted_at: new Date().toISOString() };
  return EventPublisher.envelope(Topics.MessageOutbound, tenantId, data);
}

/** Issue 19: API sends to customers with no conversation (notifications, campaigns) cost one statement per batch. */
describe('responder-service: sends to customers without a conversation', () => {
  let h: ResponderHarness;
  beforeAll(async () => {
    h = await ResponderHarness.start('sentmessages');
  });
  afterAll(() => h?.close());

  it('looks the customers of the key groups consumed side by side up in one statement, and stores nothing for them', async () => {
    const consumer = h.app.get(SentMessagesConsumer);
    const tenant = newId('ten');
    const groups = [[apiSend(tenant, phoneNumber()), apiSend(tenant, phoneNumber())], [apiSend(tenant, phoneNumber()), apiSend(tenant, phoneNumber(), 'agent')]];
    expect(await countStatements(() => Promise.all(groups.map((events) => consumer.onOutbound(events))))).toBe(1);
    expect(await h.sql.query(`SELECT 1 FROM conversation_messages WHERE tenant_id = $1`, [tenant])).toEqual([]);
  });
});
