import type { INestApplication } from '@nestjs/common';
import { Topics, newId, type ContactCreatedData, type ContactDeletedData, type ContactFilters, type CreateContactBody, type LeadRecord, type ContactUpdatedData, type EventEnvelope } from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil, recordedEventExamples } from '@parley/testing';
import { leadCaptured, messageInbound, optChange } from '../test/events';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { ContactIntakeService } from './contact-intake.service';

type ContactEvent = EventEnvelope<string, ContactCreatedData | ContactUpdatedData | ContactDeletedData>;

describe('crm-service: contacts', () => {
  let crm: CrmServiceUnderTest;
  let second: INestApplication;
  let events: TopicProbe<ContactEvent>[];
  const tenant = newId('ten');
  const otherTenant = newId('ten');
  const list = (filters: ContactFilters = {}, tenantId = tenant) => crm.call('contacts.list', { tenant_id: tenantId, limit: 100, cursor: null, ...filters });
  const create = (body: CreateContactBody, tenantId = tenant) => crm.call('contacts.create', { tenant_id: tenantId, body });
  const eventsOf = (type: string, contactId: string) =>
    events.flatMap((probe) => probe.messages).filter((m) => m.value.type === type && ('contact' in m.value.data ? m.value.data.contact.id : m.value.data.contact_id) === contactId);
  const rowsOf = (tenantId: string, phone: string): Promise<{ id: string; name: string | null; email: string | null; opted_out: boolean }[]> =>
    crm.sql.query(`SELECT id, name, email, opted_out FROM contacts WHERE tenant_id = $1 AND phone = $2`, [tenantId, phone]);

  beforeAll(async () => {
    crm = await startCrmService('crmcontacts');
    events = await Promise.all(['contact.created', 'contact.updated', 'contact.deleted'].map((topic) => crm.kafka.probe<ContactEvent>(topic)));
    crm.onClose(async () => void (await Promise.all(events.map((probe) => probe.stop()))));
    // A second instance in the same consumer group: the specs below race the two.
    second = await crm.startSecondInstance();
  });

  afterAll(async () => {
    await crm?.close();
  });

  it('makes one contact per number and tenant from messages, leads and opt-outs, with two instances consuming at once', async () => {
    const numbers = ['+4915110000001', '+4915110000002', '+4915110000003', '+4915110000004'];
    const published = numbers.flatMap((phone, i) => [
      { envelope: messageInbound(tenant, phone, `Customer ${i}`), key: `${tenant}:${phone}` },
      { envelope: messageInbound(tenant, phone, `Customer ${i}`), key: `${tenant}:${phone}` },
      { envelope: leadCaptured(tenant, { phone, name: `Lead ${i}`, email: `lead${i}@example.com` }), key: `${tenant}:${phone}` },
      { envelope: optChange(tenant, phone, 'contact.opted_out'), key: `${tenant}:${phone}` },
      // the same number at another tenant is another contact
      { envelope: messageInbound(otherTenant, phone), key: `${otherTenant}:${phone}` },
    ]);
    await crm.publish(...published);
    const settled = await pollUntil(
      async () => {
        const rows = await Promise.all(numbers.map((phone) => rowsOf(tenant, phone)));
        const elsewhere = await Promise.all(numbers.map((phone) => rowsOf(otherTenant, phone)));
        return rows.every((r) => r.length === 1 && r[0].email !== null && r[0].opted_out) && elsewhere.every((r) => r.length > 0) ? rows.map((r) => r[0]) : undefined;
      },
      { description: 'a contact per number with the lead and the opt-out applied', timeoutMs: 30_000 },
    );
    expect(settled.map((c) => c.email)).toEqual(numbers.map((_, i) => `lead${i}@example.com`));
    expect(settled.map((c) => c.name)).toEqual(numbers.map((_, i) => `Lead ${i}`));
    for (const phone of numbers) expect(await rowsOf(otherTenant, phone)).toHaveLength(1);
    // each lead links to its contact
    const leads = published.filter((p) => p.envelope.type === 'lead.captured').map((p) => (p.envelope.data as { lead: { id: string } }).lead.id);
    const links: { contact_id: string }[] = await crm.sql.query(`SELECT contact_id FROM contact_leads WHERE lead_id = ANY($1) ORDER BY lead_id`, [leads]);
    expect(links.map((l) => l.contact_id).sort()).toEqual(settled.map((c) => c.id).sort());
    // as the gateway's leads list asks for them: only this tenant's links
    const byLead = await crm.call('contacts.of-leads', { tenant_id: tenant, lead_ids: [...leads, newId('led')] });
    expect(Object.keys(byLead).sort()).toEqual([...leads].sort());
    expect(Object.values(byLead).sort()).toEqual(settled.map((c) => c.id).sort());
    expect(await crm.call('contacts.of-leads', { tenant_id: otherTenant, lead_ids: leads })).toEqual({});
    // contact.created once per contact, however many events made it
    await pollUntil(async () => settled.every((c) => eventsOf('contact.created', c.id).length === 1) || undefined, { description: 'contact.created per contact' });
    await pollUntil(async () => settled.every((c) => eventsOf('contact.updated', c.id).length >= 1) || undefined, { description: 'contact.updated per contact' });

    // The same number from both instances at once, 20 times: still one row, one contact.created.
    const phone = '+4915110000099';
    const intakes = [crm.app.get(ContactIntakeService), second.get(ContactIntakeService)];
    await Promise.all(Array.from({ length: 20 }, (_, i) => intakes[i % intakes.length].fromInboundMessages([{ tenantId: tenant, message: messageInbound(tenant, phone).data }])));
    const [row] = await rowsOf(tenant, phone);
    expect(await rowsOf(tenant, phone)).toHaveLength(1);
    await pollUntil(async () => eventsOf('contact.created', row.id).length === 1 || undefined, { description: 'one contact.created for the raced number' });
  });

  it('creates, reads, changes and deletes a contact over the API, announcing each', async () => {
    const company = await crm.call('companies.create', { tenant_id: tenant, body: { name: 'Acme', domain: 'Acme.example' } });
    const created = await create({ phone: '+14155550101', email: 'ada@example.com', name: 'Ada Lovelace', company_id: company.id, tags: ['vip'], attributes: { plan: 'gold', seats: 3, trial: false } });
    expect(created).toEqual({
      id: expect.stringMatching(/^ctc_[0-9A-Z]{26}$/),
      phone: '+14155550101',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      company_id: company.id,
      tags: ['vip'],
      attributes: { plan: 'gold', seats: 3, trial: false },
      opted_out: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await crm.call('contacts.get', { tenant_id: tenant, id: created.id })).toEqual(created);

    const updated = await crm.call('contacts.update', { tenant_id: tenant, id: created.id, body: { email: null, tags: ['vip', 'paid'], attributes: { plan: 'platinum' } } });
    expect(updated).toMatchObject({ email: null, name: 'Ada Lovelace', tags: ['vip', 'paid'], attributes: { plan: 'platinum' }, phone: '+14155550101' });

    // one number, one contact: on create and on change
    const taken = await crm.problemOf('contacts.create', { tenant_id: tenant, body: { phone: '+14155550101' } });
    expect({ status: taken.status, fields: taken.errors?.map((e) => e.field) }).toEqual({ status: 409, fields: ['phone'] });
    const other = await create({ phone: '+14155550102' });
    const clash = await crm.problemOf('contacts.update', { tenant_id: tenant, id: other.id, body: { phone: '+14155550101' } });
    expect(clash.status).toBe(409);

    await crm.call('contacts.delete', { tenant_id: tenant, id: created.id });
    expect((await crm.problemOf('contacts.get', { tenant_id: tenant, id: created.id })).status).toBe(404);
    expect((await crm.problemOf('contacts.delete', { tenant_id: tenant, id: created.id })).status).toBe(404);

    await pollUntil(async () => eventsOf('contact.deleted', created.id).length === 1 || undefined, { description: 'contact.deleted' });
    expect(eventsOf('contact.created', created.id).map((m) => m.value.data)).toEqual([expect.objectContaining({ event: 'contact.created', tenant_id: tenant, contact: created })]);
    expect(eventsOf('contact.updated', created.id).map((m) => m.value.data)).toEqual([expect.objectContaining({ event: 'contact.updated', contact: updated })]);
    expect(eventsOf('contact.deleted', created.id).map((m) => m.value.data)).toEqual([
      expect.objectContaining({ event: 'contact.deleted', tenant_id: tenant, contact_id: created.id, phone: '+14155550101', email: null }),
    ]);
    expect(eventsOf('contact.deleted', created.id)[0].key).toBe(`${tenant}:${created.id}`);
    for (const type of ['contact.created', 'contact.updated', 'contact.deleted']) expectMatchesEventSchema(type, eventsOf(type, created.id)[0].value);
  });

  it('refuses bad fields with a problem naming each', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    for (const [body, field] of [
      [{ attributes: tooMany }, 'attributes'],
      [{ attributes: { nested: { a: 1 } } }, 'attributes'],
      [{ attributes: ['a'] }, 'attributes'],
      [{ phone: '0151 123' }, 'phone'],
      [{ email: 'not-an-email' }, 'email'],
      [{ tags: ['a', 'a'] }, 'tags'],
      [{ company_id: 'acme' }, 'company_id'],
      [{ company_id: newId('cmp') }, 'company_id'],
      [{ colour: 'red' }, 'colour'],
    ] as [CreateContactBody, string][]) {
      const problem = await crm.problemOf('contacts.create', { tenant_id: tenant, body });
      expect({ body, status: problem.status, fields: [...new Set(problem.errors?.map((e) => e.field))] }).toEqual({ body, status: 400, fields: [field] });
    }
  });

  it('lists with filters, trigram search and cursors', async () => {
    const t = newId('ten');
    const acme = await crm.call('companies.create', { tenant_id: t, body: { name: 'Acme' } });
    const alexander = await create({ name: 'Alexander Graham', email: 'agb@bell.example', phone: '+14155550111', tags: ['lead'], company_id: acme.id }, t);
    const grace = await create({ name: 'Grace Hopper', email: 'grace@navy.example', phone: '+14155550112', tags: ['lead', 'vip'] }, t);
    const linus = await create({ name: 'Linus', phone: '+14155550113' }, t);
    await crm.publish({ envelope: optChange(t, '+14155550113', 'contact.opted_out'), key: `${t}:+14155550113` });
    await pollUntil(async () => (await crm.call('contacts.get', { tenant_id: t, id: linus.id })).opted_out || undefined, { description: 'Linus opted out' });
    const ids = async (filters: ContactFilters) => (await list(filters, t)).data.map((c) => c.id);

    expect(await ids({})).toEqual([linus.id, grace.id, alexander.id]);
    expect(await ids({ tag: 'lead' })).toEqual([grace.id, alexander.id]);
    expect(await ids({ tag: 'vip' })).toEqual([grace.id]);
    expect(await ids({ company_id: acme.id })).toEqual([alexander.id]);
    expect(await ids({ opted_out: true })).toEqual([linus.id]);
    expect(await ids({ opted_out: false })).toEqual([grace.id, alexander.id]);
    expect(await ids({ q: 'hopp' })).toEqual([grace.id]); // part of a name, any case
    expect(await ids({ q: 'NAVY.example' })).toEqual([grace.id]); // part of an email
    expect(await ids({ q: '5550111' })).toEqual([alexander.id]); // part of a number
    expect(await ids({ q: 'alexandre' })).toEqual([alexander.id]); // a near spelling (word similarity)
    expect(await ids({ q: '100%_' })).toEqual([]); // LIKE's wildcards are text here
    expect(await ids({ q: 'lead', tag: 'vip' })).toEqual([]);

    const first = await crm.call('contacts.list', { tenant_id: t, limit: 2, cursor: null });
    expect(first.data.map((c) => c.id)).toEqual([linus.id, grace.id]);
    const rest = await crm.call('contacts.list', { tenant_id: t, limit: 2, cursor: first.next_cursor });
    expect({ ids: rest.data.map((c) => c.id), next: rest.next_cursor }).toEqual({ ids: [alexander.id], next: null });
    // a cursor is the tenant's own
    expect((await crm.problemOf('contacts.list', { tenant_id: tenant, limit: 2, cursor: first.next_cursor })).status).toBe(400);
  });

  it('counts a campaign audience in SQL as the resolver would find it: tags, attributes, ids, opted-out apart, this tenant only', async () => {
    const t = newId('ten');
    const count = (audience: object, tenantId = t) => crm.call('contacts.audience-count', { tenant_id: tenantId, audience });
    const ana = await create({ name: 'Ana', phone: '+14155550211', tags: ['vip', 'lisbon'], attributes: { city: 'Lisbon', tier: 2 } }, t);
    await create({ name: 'Bea', phone: '+14155550212', tags: ['vip'], attributes: { city: 'Porto', tier: 2 } }, t);
    const cai = await create({ name: 'Cai', phone: '+14155550213', tags: ['vip', 'lisbon'], attributes: { city: 'Lisbon' } }, t);
    await create({ name: 'No number', email: 'nonumber@example.com', tags: ['vip'] }, t); // never messaged
    await create({ name: 'Elsewhere', phone: '+14155550214', tags: ['vip'] }); // another tenant's
    await crm.publish({ envelope: optChange(t, '+14155550213', 'contact.opted_out'), key: `${t}:+14155550213` });
    await pollUntil(async () => (await crm.call('contacts.get', { tenant_id: t, id: cai.id })).opted_out || undefined, { description: 'Cai opted out' });

    expect(await count({ tags: ['vip'] })).toEqual({ count: 2, opted_out: 1 });
    expect(await count({ tags: ['vip', 'lisbon'] })).toEqual({ count: 1, opted_out: 1 });
    expect(await count({ tags: ['vip'], attributes: { city: 'Porto' } })).toEqual({ count: 1, opted_out: 0 });
    expect(await count({ attributes: { tier: 2 } })).toEqual({ count: 2, opted_out: 0 });
    expect(await count({ attributes: { tier: '2' } })).toEqual({ count: 0, opted_out: 0 }); // a number is not its text
    expect(await count({ tags: ['nobody'], contact_ids: [ana.id] })).toEqual({ count: 1, opted_out: 0 });
    expect(await count({})).toEqual({ count: 0, opted_out: 0 });
    expect(await count({ tags: ['vip'] }, newId('ten'))).toEqual({ count: 0, opted_out: 0 });
    const bad = await crm.problemOf('contacts.audience-count', { tenant_id: t, audience: { tags: [''] } });
    expect({ status: bad.status, fields: bad.errors?.map((e) => e.field) }).toEqual({ status: 400, fields: ['audience.tags'] });
  });

  it('keeps tenants apart: another tenant\'s contact or company is not found', async () => {
    const mine = await create({ phone: '+14155550120', name: 'Mine' });
    const theirCompany = await crm.call('companies.create', { tenant_id: otherTenant, body: { name: 'Theirs Inc' } });
    for (const problem of await Promise.all([
      crm.problemOf('contacts.get', { tenant_id: otherTenant, id: mine.id }),
      crm.problemOf('contacts.update', { tenant_id: otherTenant, id: mine.id, body: { name: 'Stolen' } }),
      crm.problemOf('contacts.delete', { tenant_id: otherTenant, id: mine.id }),
      crm.problemOf('companies.get', { tenant_id: tenant, id: theirCompany.id }),
      crm.problemOf('companies.update', { tenant_id: tenant, id: theirCompany.id, body: { name: 'Mine now' } }),
      crm.problemOf('companies.delete', { tenant_id: tenant, id: theirCompany.id }),
    ])) {
      expect(problem.status).toBe(404);
    }
    expect((await list({}, otherTenant)).data.map((c) => c.id)).not.toContain(mine.id);
    const link = await crm.problemOf('contacts.update', { tenant_id: tenant, id: mine.id, body: { company_id: theirCompany.id } });
    expect({ status: link.status, fields: link.errors?.map((e) => e.field) }).toEqual({ status: 400, fields: ['company_id'] });
    expect(await crm.call('contacts.get', { tenant_id: tenant, id: mine.id })).toMatchObject({ name: 'Mine', company_id: null });
  });

  it('keeps companies, and unlinks their contacts when one is deleted', async () => {
    const company = await crm.call('companies.create', { tenant_id: tenant, body: { name: 'Initech', domain: 'initech.example', attributes: { size: 200 } } });
    expect(company).toEqual({ id: expect.stringMatching(/^cmp_/), name: 'Initech', domain: 'initech.example', attributes: { size: 200 }, created_at: expect.any(String), updated_at: expect.any(String) });
    const renamed = await crm.call('companies.update', { tenant_id: tenant, id: company.id, body: { name: 'Initrode', domain: null } });
    expect(renamed).toMatchObject({ name: 'Initrode', domain: null, attributes: { size: 200 } });
    expect((await crm.call('companies.list', { tenant_id: tenant, limit: 100, cursor: null })).data.map((c) => c.id)).toContain(company.id);
    const bad = await crm.problemOf('companies.create', { tenant_id: tenant, body: { name: '', domain: 'not a domain' } });
    expect([...new Set(bad.errors?.map((e) => e.field))].sort()).toEqual(['domain', 'name']);

    const peter = await create({ name: 'Peter', company_id: company.id });
    await crm.call('companies.delete', { tenant_id: tenant, id: company.id });
    expect((await crm.problemOf('companies.get', { tenant_id: tenant, id: company.id })).status).toBe(404);
    expect(await crm.call('contacts.get', { tenant_id: tenant, id: peter.id })).toMatchObject({ name: 'Peter', company_id: null });
  });

  it('consumes the recorded examples of every event it reads (the producers\' contracts)', async () => {
    const consumed = [Topics.MessageInbound, Topics.LeadCaptured, Topics.LeadUpdated, Topics.ContactOptedOut, Topics.ContactOptedIn];
    const examples = consumed.flatMap((topic) => recordedEventExamples<EventEnvelope>(topic));
    expect(new Set(examples.map((e) => e.topic))).toEqual(new Set(consumed));
    await crm.publish(...examples.map((e) => ({ envelope: e.envelope, key: `${e.envelope.tenant_id}:customer` })));
    const exampleTenant = examples[0].envelope.tenant_id!;
    // a lead with neither number nor email (a customer known by a business-scoped id only) has nothing to key a contact on
    const leadIds = examples
      .filter((e) => e.topic.startsWith('lead.'))
      .map((e) => (e.envelope.data as { lead: LeadRecord }).lead)
      .filter((lead) => lead.phone !== null || lead.email !== null)
      .map((lead) => lead.id);
    expect(leadIds.length).toBeGreaterThan(0);
    await pollUntil(
      async () => {
        const [{ n }] = await crm.sql.query(`SELECT count(DISTINCT lead_id)::int AS n FROM contact_leads WHERE lead_id = ANY($1)`, [leadIds]);
        return n === new Set(leadIds).size || undefined;
      },
      { description: 'every example lead linked to a contact', timeoutMs: 20_000 },
    );
    await pollUntil(async () => (await rowsOf(exampleTenant, '+14155550123')).length === 1 || undefined, { description: 'the example customer as a contact' });
    // a business-scoped user id without a number makes no contact
    expect(await crm.sql.query(`SELECT id FROM contacts WHERE phone NOT LIKE '+%'`)).toEqual([]);
  });

  it('publishes what a committed transaction queued in its outbox, in order, and nothing of a rolled-back one', async () => {
    const envelopes = [1, 2, 3].map((n) => EventPublisher.envelope('contact.updated', tenant, { n }));
    await crm.sql.transaction((tx) => enqueueEvents(tx, envelopes.map((envelope) => ({ envelope, key: `${tenant}:ctc_outbox` }))));
    const rolledBack = EventPublisher.envelope('contact.updated', tenant, { n: 4 });
    await crm.sql
      .transaction(async (tx) => {
        await enqueueEvents(tx, [{ envelope: rolledBack, key: `${tenant}:ctc_outbox` }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    crm.app.get(OutboxRelay).wake();
    const published = () => events[1].messages.filter((m) => m.key === `${tenant}:ctc_outbox`).map((m) => m.value.id);
    await pollUntil(() => published().length >= 3 || undefined, { description: 'the three queued events published' });
    expect(published()).toEqual(envelopes.map((e) => e.id));
    await pollUntil(async () => (await crm.sql.query(`SELECT count(*)::int AS n FROM outbox`))[0].n === 0 || undefined, { description: 'the outbox emptied' });
    expect(published()).not.toContain(rolledBack.id);
  });
});
