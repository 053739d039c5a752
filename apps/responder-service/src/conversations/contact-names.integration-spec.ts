import { Topics, newId, type ContactCreatedData, type ContactRecord, type ContactUpdatedData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/** The inbox shows and finds the contact by the name crm-service knows (issue 32), over real Kafka and PostgreSQL. */
describe('responder-service: contact names in the inbox', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;

  beforeAll(async () => {
    h = await ResponderHarness.start('contact-names');
    out = await h.probeOutputs();
  });

  afterAll(async () => {
    await h?.close();
  });

  const contact = (phone: string, name: string | null, updatedAt: string): ContactRecord => ({
    id: newId('ctc'),
    phone,
    email: null,
    name,
    company_id: null,
    tags: [],
    attributes: {},
    opted_out: false,
    created_at: updatedAt,
    updated_at: updatedAt,
  });
  const publishContact = (tenant: string, type: 'contact.created' | 'contact.updated', record: ContactRecord) => {
    const data: ContactCreatedData | ContactUpdatedData = { event: type, tenant_id: tenant, contact: record, at: record.updated_at } as ContactCreatedData | ContactUpdatedData;
    return h.kafka.publisher.publishEvent(EventPublisher.envelope(type === 'contact.created' ? Topics.ContactCreated : Topics.ContactUpdated, tenant, data), `${tenant}:${record.id}`);
  };
  const say = async (tenant: string, customer: string, text: string, profileName: string | null = null) => {
    const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text, contact_name: profileName });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
  };
  const inbox = async (tenant: string, q?: string) =>
    (await h.kafka.rpc.request('conversations.list', { tenant_id: tenant, limit: 50, cursor: null, ...(q ? { q } : {}) })).data.map((c) => [c.customer, c.contact_name]);

  it('shows the name the team gave the contact instead of the WhatsApp profile name, finds it by that name, and ignores an older change', async () => {
    const tenant = newId('ten');
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    await say(tenant, customer, 'is my battery under warranty?', 'Sandbox Customer');
    expect(await inbox(tenant)).toEqual([[customer, 'Sandbox Customer']]);

    const renamed = contact(customer, 'Kari Nordmann', new Date().toISOString());
    await publishContact(tenant, 'contact.updated', renamed);
    await pollUntil(async () => (await inbox(tenant))[0][1] === 'Kari Nordmann', { description: 'the new name in the inbox' });
    expect(await inbox(tenant, 'nordmann')).toEqual([[customer, 'Kari Nordmann']]);

    // A redelivered older change does not win over the newer name.
    await publishContact(tenant, 'contact.updated', { ...renamed, name: 'Old Name', updated_at: new Date(Date.now() - 60_000).toISOString() });
    const marker = contact(phoneNumber(), 'Marker', new Date().toISOString());
    await publishContact(tenant, 'contact.updated', { ...marker, id: renamed.id }); // same key: handled after the older one
    await pollUntil(async () => (await h.sql.query(`SELECT 1 FROM contact_names WHERE tenant_id = $1 AND customer = $2`, [tenant, marker.phone])).length > 0, {
      description: 'the marker kept',
    });
    expect(await inbox(tenant)).toEqual([[customer, 'Kari Nordmann']]);

    // Another tenant's contact with the same number changes nothing here.
    await publishContact(newId('ten'), 'contact.updated', contact(customer, 'Someone Else', new Date().toISOString()));
    expect(await inbox(tenant, 'someone')).toEqual([]);
  });

  it("gives a customer's new conversation the name crm-service already had, and forgets it when the contact is deleted", async () => {
    const tenant = newId('ten');
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('support'));
    const imported = contact(customer, 'Ola Importert', new Date().toISOString());
    await publishContact(tenant, 'contact.created', imported);
    await pollUntil(async () => (await h.sql.query(`SELECT 1 FROM contact_names WHERE tenant_id = $1 AND customer = $2`, [tenant, customer])).length > 0, {
      description: 'the imported name kept',
    });
    await say(tenant, customer, 'hello', 'WhatsApp Profile');
    expect(await inbox(tenant)).toEqual([[customer, 'Ola Importert']]);

    await h.kafka.publisher.publishEvent(
      EventPublisher.envelope(Topics.ContactDeleted, tenant, { event: 'contact.deleted', tenant_id: tenant, contact_id: imported.id, phone: customer, email: null, at: new Date().toISOString() }),
      `${tenant}:${imported.id}`,
    );
    await pollUntil(async () => (await h.sql.query(`SELECT 1 FROM contact_names WHERE tenant_id = $1 AND customer = $2`, [tenant, customer])).length === 0, {
      description: 'the name erased with the contact',
    });
    expect(await inbox(tenant)).toEqual([]);
  });
});
