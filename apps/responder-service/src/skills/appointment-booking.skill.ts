import { DateTime } from 'luxon';
import type { SkillState } from '../replies/reply-engine';
import { BOOKING_HORIZON_DAYS, bookingOf, checkSlot, daySlots, describeHours, formatSlot, formatSlots, freeSlots, hasWhen, localDay, parseWhen, type When } from './calendar';
import { isNo, isYes, type SkillAnswer, type SkillRequest } from './skill';

type BookingState = NonNullable<SkillState['booking']>;

/** Slots offered at a time. */
const OFFER_COUNT = 3;
/** Messages in a row the skill may fail to understand before it hands the conversation to a person. */
const MAX_MISSES = 3;

const BOOKING_INTENT =
  /\b(book|booking|appointments?|apointments?|appointmnt|appt|schedule|reschedule|reserve|reservation|slots?|availability|available|come in|drop by|visit|consultation|meeting)\b/i;
const CHANGE_INTENT = /\b(actually|instead|change|move|make it|switch|rather|reschedule|different)\b/i;
// The customer leaves the choice to the agent: the earliest free slot is proposed.
const ANY_TIME =
  /\b(when ?ever|any ?time|anytime|any (day|slot|time)|you (pick|choose|decide)|up to you|your (choice|call)|dont mind|don't mind|doesn'?t matter|no preference|earliest|soonest|first (available|free)|next (available|free)|asap|as soon as possible)\b/i;
const ORDINALS: [RegExp, number][] = [
  [/\b(first|1st|earliest|#?1)\b/i, 0],
  [/\b(second|2nd|middle|#?2)\b/i, 1],
  [/\b(third|3rd|last|latest|#?3)\b/i, 2],
];

/** The customer asks for a booking, or names a day ("can I come saturday at 10?"). */
export function wantsBooking(request: SkillRequest): boolean {
  const text = request.message.text;
  if (BOOKING_INTENT.test(text)) return true;
  const when = parseWhen(text, bookingOf(request.agent.booking).timezone, request.now);
  return when.date !== null || (when.time !== null && /\b(come|see|at|around|about)\b/i.test(text));
}

/**
 * The booking flow is waiting for the customer (a choice, a confirmation): every message goes to it, so one it cannot
 * read counts towards giving up. A booking made can still be moved ("actually make it Thursday").
 */
export function bookingContinues(request: SkillRequest): boolean {
  const b = request.state.booking;
  if (!b) return false;
  if (b.stage !== 'booked') return true;
  const when = parseWhen(request.message.text, bookingOf(request.agent.booking).timezone, request.now);
  return CHANGE_INTENT.test(request.message.text) && (hasWhen(when) || ANY_TIME.test(request.message.text));
}

/**
 * Books a slot through the conversation: offers free slots inside opening hours, reads the customer's choice in
 * free text (in the agent's timezone), asks to confirm, then books (an effect the caller applies atomically: a slot
 * taken meanwhile makes the caller ask again, and this skill then offers alternatives). A booked slot can be moved
 * ("actually make it Thursday": same time, other day).
 */
export async function appointmentBooking(request: SkillRequest): Promise<SkillAnswer> {
  const booking = bookingOf(request.agent.booking);
  const zone = booking.timezone;
  const now = request.now;
  const text = request.message.text;
  const b: BookingState = request.state.booking ?? { stage: 'choosing', offered: [], pending: null, booked: null, misses: 0 };
  const nowLocal = DateTime.fromJSDate(now, { zone });
  const busy = await request.calendar.busy(now, nowLocal.plus({ days: BOOKING_HORIZON_DAYS + 1 }).toJSDate());
  const when = parseWhen(text, zone, now);
  const answer = (t: string, next: Partial<BookingState>, extra: Partial<SkillAnswer> = {}): SkillAnswer => ({
    text: t,
    skill: 'appointment_booking',
    state: { ...request.state, booking: { ...b, misses: 0, ...next } },
    ...extra,
  });
  const offer = (intro: string, from: DateTime, near?: DateTime): SkillAnswer => {
    const slots = freeSlots(booking, from, now, busy, OFFER_COUNT, near);
    if (slots.length === 0) {
      return answer(`${intro}I'm afraid there are no free times in the next ${BOOKING_HORIZON_DAYS} days. Would you like me to connect you with our team?`, {
        stage: b.booked ? 'booked' : 'choosing',
        offered: [],
        pending: null,
      });
    }
    return answer(`${intro}I can offer ${formatSlots(slots)} (${zone}). Which suits you?`, {
      stage: b.booked ? 'booked' : 'choosing',
      offered: slots.map((s) => s.toISO()!),
      pending: null,
    });
  };

  // A confirmation of the slot the agent proposed.
  if (b.stage === 'confirming' && b.pending && !hasWhen(when) && isYes(text)) {
    const start = DateTime.fromISO(b.pending, { zone });
    const check = checkSlot(booking, start, now, busy);
    if (check !== 'ok') return offer(`Sorry, ${formatSlot(start)} has just been taken. `, start, start);
    const end = start.plus({ minutes: booking.slot_minutes });
    const moved = b.booked !== null;
    return answer(
      `${moved ? 'Done, your appointment is moved to' : "You're booked for"} ${formatSlot(start)}–${end.toFormat('HH:mm')} (${zone}). See you then!`,
      { stage: 'booked', offered: [], pending: null, booked: start.toISO()! },
      { effects: { appointment: { startsAt: start.toUTC().toISO()!, endsAt: end.toUTC().toISO()!, timezone: zone, replaces: b.booked ? toUtc(b.booked) : null } } },
    );
  }
  if (b.stage !== 'booked' && !hasWhen(when) && isNo(text)) {
    return answer('No problem. Which other day or time would suit you?', { stage: b.booked ? 'booked' : 'choosing', pending: null });
  }

  const picked = pickOffered(text, b, when);
  const candidate = picked ?? candidateFrom(when, b, zone, nowLocal);
  if (candidate === 'day-only' && when.date) {
    const day = localDay(when.date, zone);
    const sameDay = freeSlots(booking, day, now, busy, OFFER_COUNT).filter((s) => s.hasSame(day, 'day'));
    if (sameDay.length > 0) return offer('', day);
    const why = daySlots(booking, day).length === 0 ? `we're closed on ${day.toFormat('cccc')}s` : `we have nothing free on ${day.toFormat('cccc d LLL')}`;
    return offer(`Sorry, ${why} (our hours: ${describeHours(booking)}). `, day.plus({ days: 1 }));
  }
  if (candidate instanceof DateTime) {
    const check = checkSlot(booking, candidate, now, busy);
    if (check === 'ok') {
      const question = b.booked
        ? `Shall I move your appointment from ${formatSlot(DateTime.fromISO(b.booked, { zone }))} to ${formatSlot(candidate)} (${zone})?`
        : `Shall I book ${formatSlot(candidate)} (${zone}) for you?`;
      return answer(`${question} Reply yes to confirm.`, { stage: 'confirming', pending: candidate.toISO()!, offered: [] });
    }
    const why: Record<Exclude<typeof check, 'ok'>, string> = {
      past: `${formatSlot(candidate)} has already passed. `,
      closed: `Sorry, we're not open at ${formatSlot(candidate)} (our hours: ${describeHours(booking)}). `,
      misaligned: `Appointments start every ${booking.slot_minutes} minutes. `,
      taken: `Sorry, ${formatSlot(candidate)} is already taken. `,
    };
    const from = check === 'past' ? nowLocal : candidate.startOf('day');
    return offer(why[check], from, check === 'past' ? undefined : candidate);
  }

  const moving = b.stage === 'booked' && CHANGE_INTENT.test(text);
  if (ANY_TIME.test(text) && (b.stage !== 'booked' || moving)) {
    const earliest = freeSlots(booking, nowLocal, now, busy, 1)[0];
    if (!earliest) return offer('', nowLocal);
    const question = b.booked
      ? `The earliest free time is ${formatSlot(earliest)} (${zone}). Shall I move your appointment there?`
      : `The earliest free time is ${formatSlot(earliest)} (${zone}). Shall I book it for you?`;
    return answer(`${question} Reply yes to confirm.`, { stage: 'confirming', pending: earliest.toISO()!, offered: [] });
  }
  if (BOOKING_INTENT.test(text) && (b.stage !== 'booked' || moving)) return offer('', nowLocal);
  if (b.stage === 'booked') {
    return answer(`You're booked for ${formatSlot(DateTime.fromISO(b.booked!, { zone }))} (${zone}). Would you like to change it? Just tell me the new day or time.`, {});
  }
  const misses = b.misses + 1;
  if (misses >= MAX_MISSES) {
    return {
      text: "I'm sorry, I'm having trouble finding a time with you. I'm passing you to a member of our team, who will reply here.",
      skill: 'appointment_booking',
      state: { ...request.state, booking: { ...b, misses: 0 } },
      handoff: 'skill_gave_up',
    };
  }
  const slots = freeSlots(booking, nowLocal, now, busy, OFFER_COUNT);
  return {
    text: `Sorry, I didn't catch a day or time. You can say something like "Tuesday at 10am"${slots.length ? `, or pick one of ${formatSlots(slots)} (${zone})` : ''}.`,
    skill: 'appointment_booking',
    state: { ...request.state, booking: { ...b, misses, offered: slots.map((s) => s.toISO()!), stage: 'choosing' } },
  };
}

/** The slot meant by the customer's words, or 'day-only' when they named a day without a time. */
function candidateFrom(when: When, b: BookingState, zone: string, nowLocal: DateTime): DateTime | 'day-only' | null {
  // A changed mind keeps what was not changed: "make it Thursday" keeps the time, "3pm instead" keeps the day.
  const reference = b.pending ?? b.booked;
  const ref = reference ? DateTime.fromISO(reference, { zone }) : null;
  if (when.date && when.time) return localDay(when.date, zone).set({ hour: when.time.hour, minute: when.time.minute });
  if (when.date) return ref ? localDay(when.date, zone).set({ hour: ref.hour, minute: ref.minute }) : 'day-only';
  if (when.time) {
    if (ref) return ref.set({ hour: when.time.hour, minute: when.time.minute });
    const today = nowLocal.set({ hour: when.time.hour, minute: when.time.minute, second: 0, millisecond: 0 });
    return today > nowLocal ? today : today.plus({ days: 1 });
  }
  return null;
}

/** "the second one", "2", "10:30" against the slots just offered (an ordinal only when no date was named: "the 2nd of May"). */
function pickOffered(text: string, b: BookingState, when: When): DateTime | null {
  if (b.offered.length === 0) return null;
  const offered = b.offered.map((iso) => DateTime.fromISO(iso, { setZone: true }));
  const clock = /\b(\d{1,2})[:.](\d{2})\b/.exec(text);
  if (clock) {
    const match = offered.find((s) => s.hour === Number(clock[1]) && s.minute === Number(clock[2]));
    if (match) return match;
  }
  if (when.date) return null;
  if (/^\s*\d\s*$/.test(text)) return offered[Number(text.trim()) - 1] ?? null;
  for (const [re, index] of ORDINALS) if (re.test(text) && offered[index]) return offered[index];
  return null;
}

function toUtc(iso: string): string {
  return DateTime.fromISO(iso, { setZone: true }).toUTC().toISO()!;
}
