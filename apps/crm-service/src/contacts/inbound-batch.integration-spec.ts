import { Logger } from '@nestjs/common';
import { newId, type ContactCreatedData, type ContactUpdatedData, type EventEnvelope, type MessageInboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { countStatements } from '@parley/service-kit';
import { pollUntil } from '@parley/testing';
import { ActivitiesService } from '../activities/activities.service';
import { OutboxRelay } from '../outbox/outbox-relay';
import { messageInbound } from '../test/events';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';
import { ContactsConsumer } from './contacts.consumer';
import { ContactsService } from './contacts.service';

/** Rows in one order on both sides of a comparison: by tenant, then by `field`. */
const sorted = <T extends { tenant_id: string | null }>(rows: T[], field: keyof T): T[] =>
  [...rows].sort((x, y) => (x.tenant_id === y.tenant_id ? (String(x[field]) < String(y[field]) ? -1 : 1) : String(x.tenant_id) < String(y.tenant_id) ? -1 : 1));


type ContactEvent = EventEnvelope<string, ContactCreatedData | ContactUpdatedData>;
interface ContactRow {
  id: string;
  tenant_id: string;
  phone: string;
  name: string | null;
  opted_out: boolean;
}

/**
 * Issue 19: message.inbound is consumed by key group, and the groups consumed side by side make their contacts, announce
 * them and record their timeline entries in one transaction of a constant number of statements, with the outcome of
 * handling the messages one at a time.
 */
describe('crm-service takes in a batch of inbound messages in one transaction', () => {
  let crm: CrmServiceUnderTest;
  let consumer: ContactsConsumer;
  let relay: OutboxRelay;
  let probes: TopicProbe<ContactEvent>[];
  const [a, b] = [newId('ten'), newId('ten')];
  const inbound = (tenantId: string, from: string, name: string | null = null, text = 'Hello') => {
    const event = messageInbound(tenantId, from, name) as MessageInboundEvent;
    event.data.text = text;
    return event;
  };
  const contacts = async (): Promise<ContactRow[]> =>
    sorted(await crm.sql.query(`SELECT id, tenant_id, phone, name, opted_out FROM contacts WHERE tenant_id = ANY($1)`, [[a, b]]), 'phone');
  const timeline = async (): Promise<{ tenant_id: string | null; customer: string; text: string; source: string; direction: string; contact_id: string | null }[]> =>
    sorted(await crm.sql.query(`SELECT tenant_id, customer, text, source, direction, contact_id FROM contact_activities WHERE tenant_id = ANY($1)`, [[a, b]]), 'source');
  const outbox = async () =>
    ((await crm.sql.query(`SELECT topic, key, envelope FROM outbox WHERE envelope->>'tenant_id' = ANY($1) ORDER BY id`, [[a, b]])) as { topic: string; key: string; envelope: ContactEvent }[]).map(
      ({ topic, key, envelope }) => ({ topic, key, tenant: envelope.tenant_id, contact: envelope.data.contact }),
    );

  beforeAll(async () => {
    // No periodic outbox sweep: only this spec's statements run while a batch is measured.
    crm = await startCrmService('crminboundbatch', { CRM_OUTBOX_SWEEP_MS: '60000' });
    probes = await Promise.all(['contact.created', 'contact.updated'].map((topic) => crm.kafka.probe<ContactEvent>(topic)));
    crm.onClose(async () => void (await Promise.all(probes.map((probe) => probe.stop()))));
    consumer = crm.app.get(ContactsConsumer);
    relay = crm.app.get(OutboxRelay);
  });
  afterAll(() => crm?.close());
  afterEach(() => jest.restoreAllMocks());

  it('makes, names and announces the contacts and records each message once, in 5 statements whatever the batch holds', async () => {
    // The relay publishes after the measure (its passes are statements too).
    const wake = jest.spyOn(relay, 'wake').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const [p1, p2, p3, p4] = ['+4915120000001', '+4915120000002', '+4915120000003', '+4915120000004'];
    // Known before: p2 without a name (opted out), p3 named; p3's earlier message is already on the timeline.
    const [existingP2, existingP3] = [newId('ctc'), newId('ctc')];
    await crm.sql.query(`INSERT INTO contacts (id, tenant_id, phone, name, opted_out) VALUES ($1, $2, $3, NULL, true), ($4, $2, $5, 'Known', false)`, [existingP2, a, p2, existingP3, p3]);
    const earlier = inbound(a, p3, 'Known', 'earlier');
    await consumer.onMessageInbound([earlier]);
    expect(await outbox()).toEqual([]);
    // nothing queued, so the relay is not woken for a pass (a transaction, its lock and a claim for nothing)
    expect(wake).not.toHaveBeenCalled();

    const groups: MessageInboundEvent[][] = [
      // a new customer writing twice: made by the first (no profile name), named by the second, as one at a time would
      [inbound(a, p1, null, 'first'), inbound(a, p1, 'Ana', 'second'), inbound(a, p1, 'Ana B', 'third')],
      // a known number without a name takes the profile name; its opt-out stays
      [inbound(a, p2, 'Bo', 'from bo')],
      // a named contact keeps its name (no event); the earlier message again (a redelivery) is recorded once
      [inbound(a, p3, 'Other', 'from known'), earlier],
      // the same number at another tenant is another contact
      [inbound(b, p1, 'Cy', 'from cy')],
      // another tenant's new number, named by its first message
      [inbound(b, p4, 'Di', 'from di')],
      // a business-scoped user id: on the timeline, no contact
      [inbound(b, 'BSUID.123', 'Ed', 'from ed')],
      // no tenant: skipped with a warning
      [{ ...inbound(a, p4, 'Nobody', 'no tenant'), tenant_id: null }],
    ];
    // counted in this work's own async context: the service's background loops may run statements meanwhile
    const measured = await countStatements(() => Promise.all(groups.map((group) => consumer.onMessageInbound(group))));
    process.stderr.write(`[crm-inbound-batch] ${groups.flat().length} messages in ${groups.length} key groups: ${measured} statements\n`);
    // START TRANSACTION, the contacts' upsert, the outbox insert, the timeline insert, COMMIT (one at a time: 4 or 5 per message)
    expect(measured).toBe(5);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^skipped message\.inbound .*: no tenant or no record$/));
    expect(wake).toHaveBeenCalledTimes(1);

    const rows = await contacts();
    const id = (tenant: string, phone: string) => rows.find((r) => r.tenant_id === tenant && r.phone === phone)!.id;
    expect(rows).toEqual(
      sorted([
        { id: expect.stringMatching(/^ctc_/), tenant_id: a, phone: p1, name: 'Ana', opted_out: false },
        { id: existingP2, tenant_id: a, phone: p2, name: 'Bo', opted_out: true },
        { id: existingP3, tenant_id: a, phone: p3, name: 'Known', opted_out: false },
        { id: expect.stringMatching(/^ctc_/), tenant_id: b, phone: p1, name: 'Cy', opted_out: false },
        { id: expect.stringMatching(/^ctc_/), tenant_id: b, phone: p4, name: 'Di', opted_out: false },
      ], 'phone'),
    );
    expect(id(a, p1)).not.toBe(id(b, p1));

    // Each change announced once, keyed by its contact; p1 at a as one message at a time: made unnamed, then named.
    const queued = await outbox();
    const ofContact = (tenant: string, phone: string) => queued.filter((e) => e.key === `${tenant}:${id(tenant, phone)}`);
    expect(queued).toHaveLength(5);
    expect(ofContact(a, p1)).toEqual([
      { topic: 'contact.created', key: `${a}:${id(a, p1)}`, tenant: a, contact: expect.objectContaining({ id: id(a, p1), phone: p1, name: null }) },
      { topic: 'contact.updated', key: `${a}:${id(a, p1)}`, tenant: a, contact: expect.objectContaining({ id: id(a, p1), phone: p1, name: 'Ana' }) },
    ]);
    expect(ofContact(a, p2)).toEqual([{ topic: 'contact.updated', key: `${a}:${existingP2}`, tenant: a, contact: expect.objectContaining({ id: existingP2, name: 'Bo', opted_out: true }) }]);
    expect(ofContact(a, p3)).toEqual([]);
    expect(ofContact(b, p1)).toEqual([{ topic: 'contact.created', key: `${b}:${id(b, p1)}`, tenant: b, contact: expect.objectContaining({ id: id(b, p1), phone: p1, name: 'Cy' }) }]);
    expect(ofContact(b, p4)).toEqual([{ topic: 'contact.created', key: `${b}:${id(b, p4)}`, tenant: b, contact: expect.objectContaining({ id: id(b, p4), phone: p4, name: 'Di' }) }]);

    // Every message of a tenant once on its timeline, by its number (the redelivered one too, once).
    const entries = await timeline();
    const expected = [earlier, ...groups.flat().filter((e) => e.tenant_id !== null && e !== earlier)].map((e) => ({
      tenant_id: e.tenant_id,
      customer: e.data.from,
      text: e.data.text,
      source: `message:${e.data.message_id}`,
      direction: 'in',
      contact_id: null,
    }));
    expect(entries).toEqual(sorted(expected, 'source'));

    // A bigger batch costs the same: 24 new customers of both tenants, two messages each, in 24 key groups.
    const more = Array.from({ length: 24 }, (_, i) => {
      const [tenant, phone] = [i % 2 ? a : b, `+49151300000${String(i).padStart(2, '0')}`];
      return [inbound(tenant, phone, `Customer ${i}`, 'one'), inbound(tenant, phone, null, 'two')];
    });
    expect(await countStatements(() => Promise.all(more.map((group) => consumer.onMessageInbound(group))))).toBe(5);
    expect(await contacts()).toHaveLength(rows.length + 24);
    expect(await timeline()).toHaveLength(entries.length + 48);
    expect(await outbox()).toHaveLength(queued.length + 24);

    // The relay publishes what the batches queued, and the redelivered batch again changes nothing.
    wake.mockRestore();
    relay.wake();
    const published = () => probes.flatMap((probe) => probe.messages).filter((m) => m.value.tenant_id === a || m.value.tenant_id === b);
    await pollUntil(async () => published().length === queued.length + 24 || undefined, { description: 'the queued contact events published' });
    expect(await outbox()).toEqual([]);
    const p1Events = published().filter((m) => m.key === `${a}:${id(a, p1)}`);
    expect(p1Events.map((m) => [m.value.type, (m.value.data as ContactCreatedData).contact.name])).toEqual([
      ['contact.created', null],
      ['contact.updated', 'Ana'],
    ]);

    await Promise.all(groups.map((group) => consumer.onMessageInbound(group)));
    expect(await contacts()).toHaveLength(rows.length + 24);
    expect(await timeline()).toHaveLength(entries.length + 48);
    expect(await outbox()).toEqual([]);
  });

  it('makes one contact of a customer writing by email (CONTRACT §17), named by the sender, with the mails on its timeline', async () => {
    const tenant = newId('ten');
    const mail = (from: string, name: string | null, text: string) => {
      const event = inbound(tenant, from, name, text);
      event.data.channel = 'email';
      event.data.to = 'hello@bakery.example';
      return event;
    };
    // the first mail without a sender name, the second with one, a third in another case of the same address
    await consumer.onMessageInbound([mail('eva.lind@example.org', null, 'Do you bake rye?'), mail('eva.lind@example.org', 'Eva Lind', 'And on Sundays?')]);
    await consumer.onMessageInbound([mail('Eva.Lind@example.org', 'Someone Else', 'Thanks!')]);
    const rows = (await crm.sql.query(`SELECT id, phone, email, name FROM contacts WHERE tenant_id = $1`, [tenant])) as { id: string; phone: string | null; email: string; name: string }[];
    expect(rows).toEqual([{ id: expect.stringMatching(/^ctc_/), phone: null, email: 'eva.lind@example.org', name: 'Eva Lind' }]);
    const page = await crm.app.get(ActivitiesService).list(tenant, rows[0].id, 50, null);
    expect(page.data.map((e) => [e.channel, e.text]).sort()).toEqual([
      ['email', 'And on Sundays?'],
      ['email', 'Do you bake rye?'],
      ['email', 'Thanks!'],
    ]);
    // erasing the contact erases its mails with it (CONTRACT §14)
    await crm.app.get(ContactsService).delete(tenant, rows[0].id);
    expect(await crm.sql.query(`SELECT id FROM contact_activities WHERE tenant_id = $1`, [tenant])).toEqual([]);
  });
});
