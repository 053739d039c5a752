import { DEFAULT_BOOKING, WEEKDAYS, type Booking, type Weekday } from '@parley/contracts';
import * as chrono from 'chrono-node';
import { DateTime } from 'luxon';

/** How far ahead the booking skill looks for free slots. */
export const BOOKING_HORIZON_DAYS = 21;

export interface When {
  date: { year: number; month: number; day: number } | null;
  time: { hour: number; minute: number } | null;
}

export type SlotCheck = 'ok' | 'past' | 'closed' | 'misaligned' | 'taken';

/** The agent's booking settings, or the default (Mon–Fri 09:00–17:00, 30 min, UTC). */
export function bookingOf(booking: Booking | null): Booking {
  return booking ?? DEFAULT_BOOKING;
}

/**
 * A day and/or time in free text ("thursday at 2pm", "tmrw 10:30", "next Monday"), read by chrono-node in the agent's
 * timezone: "tomorrow" is tomorrow there, and the wall-clock time is that zone's.
 */
export function parseWhen(text: string, timezone: string, now: Date): When {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  const results = chrono.parse(normaliseWhen(text), { instant: now, timezone: local.offset }, { forwardDate: true });
  const when: When = { date: null, time: null };
  for (const r of results) {
    const c = r.start;
    if (!when.date && (c.isCertain('day') || c.isCertain('weekday'))) when.date = { year: c.get('year')!, month: c.get('month')!, day: c.get('day')! };
    if (!when.time && c.isCertain('hour')) when.time = { hour: c.get('hour')!, minute: c.get('minute') ?? 0 };
  }
  return when;
}

// Common shorthand chrono does not know.
function normaliseWhen(text: string): string {
  return text
    .replace(/\btmrw\b|\btmr\b|\btomoz\b|\btommorow\b|\btomorow\b|\btommorrow\b/gi, 'tomorrow')
    .replace(/\bthurs\b|\bthur\b/gi, 'thursday')
    .replace(/\btues\b/gi, 'tuesday')
    .replace(/\bweds\b/gi, 'wednesday')
    .replace(/\b(\d{1,2})\s*(?:o'?clock)\b/gi, '$1:00')
    .replace(/\bnoon\b|\bmidday\b/gi, '12:00')
    // A bare hour ("make it 11", "at 3"): chrono leaves it alone. 1–7 means the afternoon, as a receptionist would read it.
    .replace(/\b(at|make it|around|about|say|by)\s+(\d{1,2})\b(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|st|nd|rd|th|\/|-|%|people|ppl|min))/gi, (_, word: string, h: string) => {
      const hour = Number(h);
      return hour >= 1 && hour <= 23 ? `${word} ${hour <= 7 ? hour + 12 : hour}:00` : `${word} ${h}`;
    });
}

export function hasWhen(when: When): boolean {
  return when.date !== null || when.time !== null;
}

export function localDay(date: When['date'] & object, timezone: string): DateTime {
  return DateTime.fromObject({ year: date.year, month: date.month, day: date.day }, { zone: timezone });
}

function weekday(day: DateTime): Weekday {
  return WEEKDAYS[day.weekday - 1];
}

/** The day's opening intervals as instants (a missing day is closed). */
function openIntervals(booking: Booking, day: DateTime): [DateTime, DateTime][] {
  const ranges = booking.opening_hours[weekday(day)] ?? [];
  return ranges.map(([from, to]) => [atClock(day, from), atClock(day, to)]);
}

function atClock(day: DateTime, clock: string): DateTime {
  const [hour, minute] = clock.split(':').map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 });
}

/** Every slot start of a day inside opening hours, in order. */
export function daySlots(booking: Booking, day: DateTime): DateTime[] {
  const slots: DateTime[] = [];
  for (const [open, close] of openIntervals(booking, day.startOf('day'))) {
    for (let t = open; t.plus({ minutes: booking.slot_minutes }) <= close; t = t.plus({ minutes: booking.slot_minutes })) slots.push(t);
  }
  return slots;
}

/** Whether a slot can be booked: in the future, inside opening hours, on the slot grid, and free. */
export function checkSlot(booking: Booking, start: DateTime, now: Date, busy: ReadonlySet<number>): SlotCheck {
  if (start.toMillis() <= now.getTime()) return 'past';
  const end = start.plus({ minutes: booking.slot_minutes });
  const inside = openIntervals(booking, start.startOf('day')).some(([open, close]) => start >= open && end <= close);
  if (!inside) return 'closed';
  if (!daySlots(booking, start).some((s) => s.toMillis() === start.toMillis())) return 'misaligned';
  return busy.has(start.toMillis()) ? 'taken' : 'ok';
}

/** Free slots from `from` on, nearest first (a requested time's nearest alternatives when `near` is given). */
export function freeSlots(booking: Booking, from: DateTime, now: Date, busy: ReadonlySet<number>, count: number, near?: DateTime): DateTime[] {
  const found: DateTime[] = [];
  for (let d = 0; d < BOOKING_HORIZON_DAYS && found.length < count * 4; d++) {
    for (const slot of daySlots(booking, from.startOf('day').plus({ days: d }))) {
      if (slot < from || checkSlot(booking, slot, now, busy) !== 'ok') continue;
      found.push(slot);
    }
  }
  if (near) found.sort((a, b) => Math.abs(a.diff(near).toMillis()) - Math.abs(b.diff(near).toMillis()) || a.toMillis() - b.toMillis());
  return found.slice(0, count).sort((a, b) => a.toMillis() - b.toMillis());
}

export function formatSlot(slot: DateTime): string {
  return slot.toFormat('ccc d LLL, HH:mm');
}

/** "09:00, 09:30 or 10:00 on Mon 24 Nov" when they share a day, else each with its day. */
export function formatSlots(slots: DateTime[]): string {
  const sameDay = slots.every((s) => s.hasSame(slots[0], 'day'));
  const parts = sameDay ? slots.map((s) => s.toFormat('HH:mm')) : slots.map(formatSlot);
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
  return sameDay ? `${slots[0].toFormat('ccc d LLL')} at ${listed}` : listed;
}

/** The opening hours in words: "Mon–Fri 09:00–17:00". */
export function describeHours(booking: Booking): string {
  const groups: { days: Weekday[]; hours: string }[] = [];
  for (const day of WEEKDAYS) {
    const ranges = booking.opening_hours[day];
    if (!ranges?.length) continue;
    const hours = ranges.map(([a, b]) => `${a}–${b}`).join(', ');
    const last = groups[groups.length - 1];
    if (last && last.hours === hours && WEEKDAYS.indexOf(last.days[last.days.length - 1]) === WEEKDAYS.indexOf(day) - 1) last.days.push(day);
    else groups.push({ days: [day], hours });
  }
  const name = (d: Weekday) => d.charAt(0).toUpperCase() + d.slice(1);
  return groups.map((g) => `${name(g.days[0])}${g.days.length > 1 ? `–${name(g.days[g.days.length - 1])}` : ''} ${g.hours}`).join('; ');
}
