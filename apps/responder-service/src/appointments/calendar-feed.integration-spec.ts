import { newId } from '@parley/contracts';
import ICAL from 'ical.js';
import type { EntityManager } from 'typeorm';
import { ResponderHarness } from '../test/responder-harness';
import { AppointmentsStore, type BookingInput } from './appointments.store';

/** The VEVENTs of a feed as a calendar app reads them, parsed back with ical.js. */
function eventsOf(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      status: vevent.getFirstPropertyValue('status'),
      summary: event.summary,
      url: vevent.getFirstPropertyValue('url'),
    };
  });
}

describe('responder-service: the calendar feed of appointments (CONTRACT.md §14, Integrations)', () => {
  let h: ResponderHarness;
  let appointments: AppointmentsStore;
  const rpc = () => h.kafka.rpc;

  beforeAll(async () => {
    h = await ResponderHarness.start('calfeed');
    appointments = h.app.get(AppointmentsStore);
  });

  afterAll(() => h?.close());

  /** Books through the same code the booking skill uses, in its own transaction. */
  const book = (tenantId: string, input: Partial<BookingInput> & Pick<BookingInput, 'startsAt' | 'endsAt'>) =>
    h.sql.transaction((tx: EntityManager) =>
      appointments.book(tx, tenantId, { agentName: 'front-desk', conversationId: newId('cnv'), customer: '+4915112345678', timezone: 'Europe/Berlin', replaces: null, ...input }),
    );
  const hour = (day: number, at: number) => new Date(Date.UTC(2030, 0, day, at)).toISOString();

  it('answers one stable token per tenant, and each tenant its own', async () => {
    const [tenantA, tenantB] = [newId('ten'), newId('ten')];
    const [first, again, other] = await Promise.all([
      rpc().request('appointments.feed-token', { tenant_id: tenantA }),
      rpc().request('appointments.feed-token', { tenant_id: tenantA }),
      rpc().request('appointments.feed-token', { tenant_id: tenantB }),
    ]);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again.token).toBe(first.token);
    expect(other.token).not.toBe(first.token);
  });

  it("lists the tenant's booked, rescheduled and cancelled appointments, and never another tenant's", async () => {
    const [tenant, stranger] = [newId('ten'), newId('ten')];
    const booked = await book(tenant, { customer: '+4915100000001', startsAt: hour(7, 9), endsAt: hour(7, 10) });
    const moving = await book(tenant, { customer: '+4915100000002', startsAt: hour(8, 9), endsAt: hour(8, 10) });
    const cancelled = await book(tenant, { customer: '+4915100000003', startsAt: hour(9, 9), endsAt: hour(9, 10) });
    const foreign = await book(stranger, { customer: '+4915199999999', startsAt: hour(7, 11), endsAt: hour(7, 12) });
    const moved = await book(tenant, {
      customer: '+4915100000002',
      conversationId: moving!.appointment.conversation_id,
      startsAt: hour(8, 14),
      endsAt: hour(8, 15),
      replaces: hour(8, 9),
    });
    expect(moved).toMatchObject({ change: 'rescheduled', appointment: { id: moving!.appointment.id } });
    await h.sql.transaction((tx: EntityManager) => appointments.cancel(tx, tenant, cancelled!.appointment.conversation_id, hour(9, 9)));

    const { token } = await rpc().request('appointments.feed-token', { tenant_id: tenant });
    const { ics } = await rpc().request('appointments.feed', { token });
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(eventsOf(ics)).toEqual([
      { uid: `${booked!.appointment.id}@parley`, start: hour(7, 9), end: hour(7, 10), status: 'CONFIRMED', summary: 'Appointment with +4915100000001', url: expect.stringContaining(`/dashboard/inbox/${booked!.appointment.conversation_id}`) },
      // Rescheduled: the same event (UID) at its new time, not a second one.
      { uid: `${moving!.appointment.id}@parley`, start: hour(8, 14), end: hour(8, 15), status: 'CONFIRMED', summary: 'Appointment with +4915100000002', url: expect.any(String) },
      { uid: `${cancelled!.appointment.id}@parley`, start: hour(9, 9), end: hour(9, 10), status: 'CANCELLED', summary: 'Appointment with +4915100000003', url: expect.any(String) },
    ]);

    const strangers = await rpc().request('appointments.feed-token', { tenant_id: stranger });
    expect(eventsOf((await rpc().request('appointments.feed', { token: strangers.token })).ics).map((e) => e.uid)).toEqual([`${foreign!.appointment.id}@parley`]);
  });

  it('rotation gives a new token and the old one answers 404; other tenants keep theirs', async () => {
    const [tenant, neighbour] = [newId('ten'), newId('ten')];
    await book(tenant, { startsAt: hour(10, 9), endsAt: hour(10, 10) });
    const old = await rpc().request('appointments.feed-token', { tenant_id: tenant });
    const neighbours = await rpc().request('appointments.feed-token', { tenant_id: neighbour });

    const rotated = await rpc().request('appointments.feed-rotate', { tenant_id: tenant });
    expect(rotated.token).not.toBe(old.token);
    expect(await rpc().request('appointments.feed-token', { tenant_id: tenant })).toEqual(rotated);
    await expect(rpc().request('appointments.feed', { token: old.token })).rejects.toMatchObject({ problem: { status: 404 } });
    expect(eventsOf((await rpc().request('appointments.feed', { token: rotated.token })).ics)).toHaveLength(1);
    expect(await rpc().request('appointments.feed-token', { tenant_id: neighbour })).toEqual(neighbours);
  });

  it('answers 404 to a token that is nobody’s or malformed', async () => {
    for (const token of ['A'.repeat(43), 'short', `${'A'.repeat(42)}/`, "' OR 1=1 --"]) {
      await expect(rpc().request('appointments.feed', { token })).rejects.toMatchObject({ problem: { status: 404 } });
    }
  });
});
