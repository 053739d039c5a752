import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type ContactRecord, type MessageOutboundData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';

/**
 * A message on its way when its customer's contact is deleted (message.outbound is gathered briefly) can add a
 * timeline entry after the deletion erased the rest: the contact's own contact.deleted, a second later, erases it.
 */
describe("crm-service erases a deleted contact's timeline entries that land after the deletion", () => {
  let crm: CrmServiceUnderTest;
  beforeAll(async () => {
    crm = await startCrmService('crmtimelineerasure');
  });
  afterAll(() => crm?.close());

  const entriesOf = async (tenantId: string, customer: string) =>
    ((await crm.sql.query(`SELECT text FROM contact_activities WHERE tenant_id = $1 AND customer = $2`, [tenantId, customer])) as { text: string }[]).map((r) => r.text);

  const sent = (tenantId: string, to: string, text: string, acceptedAt: Date) => {
    const data: MessageOutboundData = { message_id: newId('msg'), channel: 'whatsapp', from: null, to, content: { type: 'text', text }, origin: 'api', accepted_at: acceptedAt.toISOString() };
    return { envelope: EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), key: `${tenantId}:${to}` };
  };

  it('takes an entry of a message sent before the deletion that lands after it, and keeps one sent after it', async () => {
    const tenant = newId('ten');
    const phone = '+14155550177';
    const contact = (await crm.call('contacts.create', { tenant_id: tenant, body: { phone, name: 'Late Larry' } })) as ContactRecord;
    const beforeDeletion = new Date();
    await crm.call('contacts.delete', { tenant_id: tenant, id: contact.id });

    // landed after the deletion erased the timeline, as a gathered batch would
    await crm.publish(sent(tenant, phone, 'sent before the deletion', beforeDeletion));
    await pollUntil(async () => (await entriesOf(tenant, phone)).includes('sent before the deletion') || undefined, { description: 'the late entry recorded' });
    // and a message to the number once the contact is gone: the customer's again, not the deleted contact's
    await crm.publish(sent(tenant, phone, 'sent after the deletion', new Date(Date.now() + 60_000)));

    await pollUntil(async () => {
      const left = await entriesOf(tenant, phone);
      return (!left.includes('sent before the deletion') && left.includes('sent after the deletion')) || undefined;
    }, { description: 'the late entry erased, the later one kept' });
  });
});
