import { Topics, newId, type ContactActivityRecord, type MessageOutboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { leadCaptured, messageInbound } from '../test/events';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';

/** An agent's reply to `to`, as responder-service produces it to message.outbound. */
function agentReply(tenantId: string, to: string, text: string) {
  const data: MessageOutboundData = {
    message_id: newId('msg'),
    channel: 'whatsapp',
    from: null,
    to,
    content: { type: 'text', text },
    origin: 'agent',
    accepted_at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.MessageOutbound, tenantId, data);
}

describe('crm-service: a contact timeline (CONTRACT.md §14 activities)', () => {
  let crm: CrmServiceUnderTest;
  const tenant = newId('ten');
  const otherTenant = newId('ten');
  const timeline = (contactId: string, cursor: string | null = null, limit = 100, tenantId = tenant) =>
    crm.call('contacts.activities', { tenant_id: tenantId, id: contactId, limit, cursor });

  beforeAll(async () => {
    crm = await startCrmService('crmactivities');
  });

  afterAll(async () => {
    await crm?.close();
  });

  it('assembles a message in, the reply out, a lead, its deal moving stage and a note, newest first, each once however often its event arrives', async () => {
    const phone = '+4915120000001';
    const inbound = messageInbound(tenant, phone, 'Maria');
    inbound.data.text = 'Do you deliver on Sundays?';
    await crm.publish({ envelope: inbound, key: `${tenant}:${phone}` });
    const contactId = await pollUntil(
      async () => (await crm.sql.query(`SELECT id FROM contacts WHERE tenant_id = $1 AND phone = $2`, [tenant, phone]))[0]?.id as string | undefined,
      { description: 'the contact of the first message', timeoutMs: 30_000 },
    );

    const reply = agentReply(tenant, phone, 'Yes, from 9 to 1.');
    const lead = leadCaptured(tenant, { phone, name: 'Maria Souza', email: 'maria@example.com', interest: 'Sunday delivery' });
    // each published twice: a redelivery lands on the entry the first made
    await crm.publish({ envelope: reply, key: `${tenant}:${phone}` }, { envelope: reply, key: `${tenant}:${phone}` });
    await crm.publish({ envelope: lead, key: `${tenant}:${phone}` }, { envelope: lead, key: `${tenant}:${phone}` });
    await crm.publish({ envelope: inbound, key: `${tenant}:${phone}` });

    // the lead opens a deal (deal.created, consumed back into the timeline); moving it is a stage change
    const deal = await pollUntil(
      async () => (await crm.call('deals.list', { tenant_id: tenant, limit: 10, cursor: null, contact_id: contactId })).data[0],
      { description: "the lead's deal", timeoutMs: 30_000 },
    );
    await crm.call('deals.update', { tenant_id: tenant, id: deal.id, body: { stage: 'won' } });
    const note = await crm.call('contacts.add-activity', { tenant_id: tenant, id: contactId, body: { type: 'note', text: 'Prefers calls after 5pm' } });
    expect(note).toMatchObject({ type: 'note', text: 'Prefers calls after 5pm', channel: null, direction: null, ref: null });

    const types = ['message', 'message', 'lead_captured', 'deal_created', 'deal_stage_changed', 'note'];
    const entries = await pollUntil(
      async () => {
        const page = await timeline(contactId);
        return page.data.length >= types.length ? page.data : undefined;
      },
      { description: 'every entry on the timeline', timeoutMs: 30_000 },
    );
    // the reply and the lead arrived twice, the first message again after them: still one entry each (unique per source)
    expect(entries).toHaveLength(types.length);
    expect([...entries.map((e) => e.type)].sort()).toEqual([...types].sort());

    const byType = (type: string, direction?: string) => entries.find((e) => e.type === type && (direction === undefined || e.direction === direction)) as ContactActivityRecord;
    expect(byType('message', 'in')).toMatchObject({ channel: 'whatsapp', text: 'Do you deliver on Sundays?', ref: { kind: 'message', id: inbound.data.message_id } });
    expect(byType('message', 'out')).toMatchObject({ channel: 'whatsapp', text: 'Yes, from 9 to 1.', ref: { kind: 'message', id: reply.data.message_id } });
    expect(byType('lead_captured')).toMatchObject({ text: 'Maria Souza · maria@example.com · Sunday delivery', ref: { kind: 'lead', id: lead.data.lead.id } });
    expect(byType('deal_stage_changed')).toMatchObject({ text: expect.stringContaining('→ won'), ref: { kind: 'deal', id: deal.id } });

    // newest first: each entry's time is at or before the one above it, and the note (added last) leads
    const times = entries.map((e) => Date.parse(e.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(entries[0].id).toBe(note.id);
  });

  it('pages newest first with its own cursors, and refuses another list\'s cursor', async () => {
    const contact = await crm.call('contacts.create', { tenant_id: tenant, body: { phone: '+4915120000002', name: 'Paging' } });
    const added: ContactActivityRecord[] = [];
    for (let i = 0; i < 5; i++) added.push(await crm.call('contacts.add-activity', { tenant_id: tenant, id: contact.id, body: { type: 'task', text: `Call back #${i}`, due_at: '2030-01-02T03:04:05Z' } }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await timeline(contact.id, cursor, 2);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(added.map((a) => a.id).reverse());
    expect(added[0].due_at).toBe('2030-01-02T03:04:05.000Z');

    const other = await crm.call('contacts.create', { tenant_id: tenant, body: { phone: '+4915120000003' } });
    const otherCursor = (await crm.call('contacts.activities', { tenant_id: tenant, id: contact.id, limit: 1, cursor: null })).next_cursor!;
    const problem = await crm.problemOf('contacts.activities', { tenant_id: tenant, id: other.id, limit: 1, cursor: otherCursor });
    expect(problem.status).toBe(400);
    expect(problem.errors?.[0]?.field).toBe('cursor');
  });

  it('answers 404 for another tenant\'s contact and 400 naming the field for a bad entry; deleting the contact deletes its timeline', async () => {
    const contact = await crm.call('contacts.create', { tenant_id: tenant, body: { phone: '+4915120000004' } });
    await crm.call('contacts.add-activity', { tenant_id: tenant, id: contact.id, body: { type: 'call', text: 'Left a voicemail' } });
    expect((await crm.problemOf('contacts.activities', { tenant_id: otherTenant, id: contact.id, limit: 10, cursor: null })).status).toBe(404);
    expect((await crm.problemOf('contacts.add-activity', { tenant_id: otherTenant, id: contact.id, body: { type: 'note', text: 'x' } })).status).toBe(404);

    const badType = await crm.problemOf('contacts.add-activity', { tenant_id: tenant, id: contact.id, body: { type: 'meeting' as 'note', text: 'x' } });
    expect(badType.status).toBe(400);
    expect(badType.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'type', message: 'type must be one of note, call, task' })]));
    const badDue = await crm.problemOf('contacts.add-activity', { tenant_id: tenant, id: contact.id, body: { type: 'task', text: 'x', due_at: 'tomorrow' } });
    expect(badDue.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'due_at' })]));

    await crm.call('contacts.delete', { tenant_id: tenant, id: contact.id });
    expect((await crm.sql.query(`SELECT count(*)::int AS n FROM contact_activities WHERE contact_id = $1 OR customer = $2`, [contact.id, '+4915120000004']))[0].n).toBe(0);
  });
});
