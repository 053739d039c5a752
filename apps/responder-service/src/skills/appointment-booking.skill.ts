import { DateTime } from 'luxon';
import type { SkillState } from '../replies/reply-engine';
import {
  BOOKING_HORIZON_DAYS,
  bookingOf,
  checkSlot,
  daySlots,
  describeHours,
  formatDay,
  formatSlot,
  formatSlots,
  freeSlots,
  hasWhen,
  localDay,
  parseWhen,
  type When,
} from './calendar';
import { asksQuestion } from '../knowledge/questions';
import { asksToCancel, isNo, isYes } from './confirmations';
import { phrasesIn } from './dialogue-phrases';
import type { SkillAnswer, SkillRequest } from './skill';

type BookingState = NonNullable<SkillState['booking']>;

/** Slots offered at a time. */
const OFFER_COUNT = 3;
/** Messages in a row the skill may fail to understand before it hands the conversation to a person. */
const MAX_MISSES = 3;

// The patterns below read accent-folded text (fold()): JavaScript's \b knows only ASCII letters.
// Asking for a booking, in the five languages ("book", "cita", "marcar", "rendez-vous", "Termin").
const BOOKING_INTENT =
  /\b(book|booking|appointments?|apointments?|appointmnt|appt|schedule|reschedule|reserve|reservation|slots?|availability|available|come in|drop by|visit|consultation|meeting|citas?|reservar|reserva|agendar|turno|marcar|agendamento|rendez-vous|rdv|reserver|creneau|termin|termine|terminen|buchen|vereinbaren|reservieren)\b/i;
// A change of mind or a move ("actually", "mejor", "plutôt", "lieber", "can we move it").
const CHANGE_INTENT =
  /\b(actually|instead|change|move|make it|switch|rather|reschedule|different|better|prefer|mejor|cambiar|cambia|mover|mueve|en vez|en lugar|prefiero|reprogramar|pasar|melhor|mudar|muda|trocar|remarcar|prefiro|em vez|plutot|changer|deplacer|decaler|prefere|au lieu|lieber|stattdessen|verschieben|verlegen|andern|besser)\b/i;
// A cancel that names the appointment ("cancel my appointment"), as opposed to a bare "cancel" of what was proposed.
const APPOINTMENT_WORD = /\b(appointments?|appt|booking|reservation|cita|reserva|turno|consulta|agendamento|horario|rendez-vous|rdv|termine?n?|buchung)\b/i;
// The customer leaves the choice to the agent: the earliest free slot is proposed.
const ANY_TIME =
  /\b(when ?ever|any ?time|anytime|any (day|slot|time)|you (pick|choose|decide)|up to you|your (choice|call)|dont mind|don't mind|doesn'?t matter|no preference|earliest|soonest|first (available|free)|next (available|free)|asap|as soon as possible|cuando sea|lo antes posible|cualquier (dia|hora)|me da igual|lo mas pronto|o quanto antes|o mais cedo|qualquer (dia|horario|hora)|tanto faz|le plus tot|des que possible|n'importe quand|peu importe|so fruh wie moglich|fruhestmoglich|nachstmoglich|egal wann|wann immer|ist mir egal)\b/i;
const ORDINALS: [RegExp, number][] = [
  [/\b(first|1st|earliest|#?1|primer[oa]?|premier|premiere|erste[nr]?)\b/i, 0],
  [/\b(second|2nd|middle|#?2|segund[oa]|deuxieme|seconde?|zweite[nr]?)\b/i, 1],
  [/\b(third|3rd|last|latest|#?3|tercer[oa]?|terceir[oa]|troisieme|dernier|derniere|dritte[nr]?|ultim[oa]|letzte[nr]?)\b/i, 2],
];

/** Without accents, so the patterns above read "plutôt", "ändern" and "réserver". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/** The customer asks for a booking (or to cancel one), or names a day ("can I come saturday at 10?"). */
export function wantsBooking(request: SkillRequest): boolean {
  const text = request.message.text;
  if (BOOKING_INTENT.test(fold(text))) return true;
  const when = parseWhen(text, bookingOf(request.agent.booking).timezone, request.now, { language: request.language });
  return when.date !== null || (when.time !== null && /\b(come|see|at|around|about|a las|um|vers|gegen)\b|\ba(s)? \d/i.test(fold(text)));
}

/**
 * The booking flow is waiting for the customer (a choice, a confirmation): every message goes to it, so one it cannot
 * read counts towards giving up. A booking made can still be moved ("actually make it Thursday").
 */
export function bookingContinues(request: SkillRequest): boolean {
  const b = request.state.booking;
  if (!b) return false;
  if (b.stage !== 'booked') return true;
  const text = request.message.text;
  if (asksToCancel(text)) return true;
  // Alternatives were just offered for a move: "the second one" or "12:30" picks one.
  if (b.offered.length > 0 && picksOne(text)) return true;
  const when = parseWhen(text, bookingOf(request.agent.booking).timezone, request.now, { language: request.language, bareHour: true });
  return CHANGE_INTENT.test(fold(text)) && (hasWhen(when) || ANY_TIME.test(fold(text)));
}

/**
 * The message moves a booking dialogue in progress on (a day or time, a pick, a yes or no, a cancel, "any time", a
 * move), as opposed to a side question asked in the middle of it ("before I confirm, do you take MetLife?").
 */
export function advancesBooking(request: SkillRequest): boolean {
  const b = request.state.booking;
  if (!b) return false;
  const text = request.message.text;
  const f = fold(text);
  const when = parseWhen(text, bookingOf(request.agent.booking).timezone, request.now, { language: request.language, bareHour: true });
  // "until when can I cancel?" asks about the policy; "cancel it" cancels.
  const question = asksQuestion(text) && INFO_QUESTION.test(f.toLowerCase());
  if (hasWhen(when) || ANY_TIME.test(f) || (asksToCancel(text) && !question)) return true;
  if (b.offered.length > 0 && picksOne(text)) return true;
  if (b.stage === 'booked') return CHANGE_INTENT.test(f) && !asksQuestion(text);
  return isYes(text) || isNo(text) || (BOOKING_INTENT.test(f) && !asksQuestion(text));
}

/**
 * What the booking dialogue was waiting for, said again after a side question (CONTRACT §20: "offered again, not
 * forced"): the slot proposed, or the slots on offer; null when nothing is pending.
 */
export function bookingReminder(request: SkillRequest): string | null {
  const b = request.state.booking;
  if (!b || b.stage === 'booked') return null;
  const zone = bookingOf(request.agent.booking).timezone;
  const say = phrasesIn(request.language);
  if (b.stage === 'confirming' && b.pending) return say.stillFree(formatSlot(DateTime.fromISO(b.pending, { zone }), request.language), zone);
  if (b.offered.length > 0) return say.stillOffered(formatSlots(b.offered.map((o) => DateTime.fromISO(o, { zone })), request.language), zone);
  return null;
}

// A question about the business rather than a request for a time: what it costs, whether it has or does something,
// how a visit goes ("how much is a 1-hour lesson on Saturday?", "what time should I arrive for my 10:00?").
const INFO_QUESTION =
  /^\s*[¿¡]?\s*((and|also|oh|ah|wait|btw|but|y|e|et|und|aber|mais|pero|mas|tambien|aussi|auch)[\s,]+)*(what|whats|which|how|why|who|where|do you|does|is there|are there|any|what if|que|qual|quais|cual|cuales|cuanto|cuanta|como|por que|donde|onde|quanto|quanta|hay|tienen|tem|si|se|quel|quelle|quels|quelles|combien|comment|pourquoi|ou|est-ce qu|y a-t-il|avez-vous|was|wie|warum|wer|wo|welche|welcher|welches|gibt es|habt ihr|haben sie|bis wann|falls|wenn)\b/;
// Said of the past: a complaint or a story, not a booking request ("yesterday", "ayer", "ontem", "hier", "gestern").
const PAST = /\b(yesterday|last (week|time|month)|ayer|la semana pasada|ontem|semana passada|hier|la semaine derniere|gestern|letzte woche)\b/;

/** A fresh message that asks about the business, not for an appointment, though it may name a day or time. */
export function asksAboutBusiness(request: SkillRequest, priceAsked: boolean): boolean {
  const f = fold(request.message.text).toLowerCase();
  if (PAST.test(f)) return true;
  if (BOOKING_INTENT.test(f) && !priceAsked) return false;
  return priceAsked || (asksQuestion(request.message.text) && INFO_QUESTION.test(f));
}

/** The message asks for an appointment in so many words ("book", "cita", "marcar", "rendez-vous", "Termin"). */
export function asksForAppointment(request: SkillRequest): boolean {
  return BOOKING_INTENT.test(fold(request.message.text));
}

/** The message names one of the slots offered: an ordinal, a lone digit or a clock time. */
function picksOne(text: string): boolean {
  return /^\s*\d\s*$/.test(text) || /\b\d{1,2}[:.]\d{2}\b/.test(text) || ORDINALS.some(([re]) => re.test(fold(text)));
}

/**
 * Books a slot through the conversation: offers free slots inside opening hours, reads the customer's choice in
 * free text (in the agent's timezone and the customer's language), asks to confirm, then books (an effect the caller
 * applies atomically: a slot taken meanwhile makes the caller ask again, and this skill then offers alternatives).
 * Before confirming, a changed mind ("actually 11 would be better") proposes the new time; after booking, a move
 * ("can we move it to Friday at 4?") is proposed and, once confirmed, reschedules the same appointment; "cancel my
 * appointment" cancels it.
 */
export async function appointmentBooking(request: SkillRequest): Promise<SkillAnswer> {
  const booking = bookingOf(request.agent.booking);
  const zone = booking.timezone;
  const now = request.now;
  const text = request.message.text;
  const lang = request.language;
  const say = phrasesIn(lang);
  const slot = (t: DateTime) => formatSlot(t, lang);
  const hours = () => describeHours(booking, lang);
  const b: BookingState = request.state.booking ?? { stage: 'choosing', offered: [], pending: null, booked: null, misses: 0 };
  const nowLocal = DateTime.fromJSDate(now, { zone });
  const busy = await request.calendar.busy(now, nowLocal.plus({ days: BOOKING_HORIZON_DAYS + 1 }).toJSDate());
  // Inside a booking dialogue a lone number is an hour ("actually 11 would be better").
  const when = parseWhen(text, zone, now, { language: lang, bareHour: request.state.booking !== undefined });
  const answer = (t: string, next: Partial<BookingState>, extra: Partial<SkillAnswer> = {}): SkillAnswer => ({
    text: t,
    skill: 'appointment_booking',
    state: { ...request.state, booking: { ...b, misses: 0, ...next } },
    ...extra,
  });
  const offer = (intro: string, from: DateTime, near?: DateTime): SkillAnswer => {
    const slots = freeSlots(booking, from, now, busy, OFFER_COUNT, near);
    if (slots.length === 0) {
      return answer(`${intro}${say.noFreeTimes(BOOKING_HORIZON_DAYS)}`, { stage: b.booked ? 'booked' : 'choosing', offered: [], pending: null });
    }
    return answer(`${intro}${say.offer(formatSlots(slots, lang), zone)}`, {
      stage: b.booked ? 'booked' : 'choosing',
      offered: slots.map((s) => s.toISO()!),
      pending: null,
    });
  };

  // A cancel: of the appointment booked here, or (a bare "cancel" before anything is booked) of the booking dialogue.
  // "no, cancel that, make it 11" is a change of time; "cancel my appointment on Thursday" is a cancel.
  if (asksToCancel(text) && (!hasWhen(when) || APPOINTMENT_WORD.test(fold(text)))) {
    if (b.booked && (b.stage === 'booked' || APPOINTMENT_WORD.test(fold(text)) || !b.pending)) {
      const booked = DateTime.fromISO(b.booked, { zone });
      const { booking: _ended, ...rest } = request.state;
      return { text: say.cancelled(slot(booked), zone), skill: 'appointment_booking', state: rest, effects: { cancel: { startsAt: toUtc(b.booked) } } };
    }
    if (b.booked) return answer(say.declined, { stage: 'booked', pending: null });
    const { booking: _dropped, ...rest } = request.state;
    return { text: request.state.booking ? say.stopped : say.nothingToCancel, skill: 'appointment_booking', state: rest };
  }

  // A confirmation of the slot the agent proposed.
  if (b.stage === 'confirming' && b.pending && !hasWhen(when) && isYes(text)) {
    const start = DateTime.fromISO(b.pending, { zone });
    const check = checkSlot(booking, start, now, busy);
    if (check !== 'ok') return offer(say.justTaken(slot(start)), start, start);
    const end = start.plus({ minutes: booking.slot_minutes });
    const moved = b.booked !== null;
    return answer(
      (moved ? say.moved : say.booked)(slot(start), end.toFormat('HH:mm'), zone),
      { stage: 'booked', offered: [], pending: null, booked: start.toISO()! },
      { effects: { appointment: { startsAt: start.toUTC().toISO()!, endsAt: end.toUTC().toISO()!, timezone: zone, replaces: b.booked ? toUtc(b.booked) : null } } },
    );
  }
  if (b.stage !== 'booked' && !hasWhen(when) && isNo(text)) {
    return answer(say.declined, { stage: b.booked ? 'booked' : 'choosing', pending: null });
  }

  const picked = pickOffered(text, b, when);
  const candidate = picked ?? candidateFrom(when, b, zone, nowLocal);
  if (candidate === 'day-only' && when.date) {
    const day = localDay(when.date, zone);
    const sameDay = freeSlots(booking, day, now, busy, OFFER_COUNT).filter((s) => s.hasSame(day, 'day'));
    if (sameDay.length > 0) return offer('', day);
    const why = daySlots(booking, day).length === 0 ? say.closedOn(day.setLocale(lang).toFormat('cccc'), hours()) : say.nothingFreeOn(formatDay(day, lang), hours());
    return offer(why, day.plus({ days: 1 }));
  }
  if (candidate instanceof DateTime) {
    const check = checkSlot(booking, candidate, now, busy);
    if (check === 'ok') {
      const question = b.booked ? say.confirmMove(slot(DateTime.fromISO(b.booked, { zone })), slot(candidate), zone) : say.confirmBook(slot(candidate), zone);
      return answer(question, { stage: 'confirming', pending: candidate.toISO()!, offered: [] });
    }
    const why: Record<Exclude<typeof check, 'ok'>, string> = {
      past: say.past(slot(candidate)),
      closed: say.notOpenAt(slot(candidate), hours()),
      misaligned: say.misaligned(booking.slot_minutes),
      taken: say.taken(slot(candidate)),
    };
    const from = check === 'past' ? nowLocal : candidate.startOf('day');
    return offer(why[check], from, check === 'past' ? undefined : candidate);
  }

  const moving = b.stage === 'booked' && CHANGE_INTENT.test(fold(text));
  if (ANY_TIME.test(fold(text)) && (b.stage !== 'booked' || moving)) {
    const earliest = freeSlots(booking, nowLocal, now, busy, 1)[0];
    if (!earliest) return offer('', nowLocal);
    const question = b.booked ? say.earliestMove(slot(earliest), zone) : say.earliestBook(slot(earliest), zone);
    return answer(question, { stage: 'confirming', pending: earliest.toISO()!, offered: [] });
  }
  if (BOOKING_INTENT.test(fold(text)) && (b.stage !== 'booked' || moving)) return offer('', nowLocal);
  if (b.stage === 'booked') return answer(say.alreadyBooked(slot(DateTime.fromISO(b.booked!, { zone })), zone), {});
  const misses = b.misses + 1;
  if (misses >= MAX_MISSES) {
    return { text: say.gaveUp, skill: 'appointment_booking', state: { ...request.state, booking: { ...b, misses: 0 } }, handoff: 'skill_gave_up' };
  }
  const slots = freeSlots(booking, nowLocal, now, busy, OFFER_COUNT);
  return {
    text: say.didNotCatch(slots.length ? formatSlots(slots, lang) : null, zone),
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
    // A time alone after slots of one day were offered ("10:30" after Monday's 09:00–10:00) means that day.
    if (b.offered.length > 0) return DateTime.fromISO(b.offered[0], { zone }).set({ hour: when.time.hour, minute: when.time.minute });
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
  for (const [re, index] of ORDINALS) if (re.test(fold(text)) && offered[index]) return offered[index];
  return null;
}

function toUtc(iso: string): string {
  return DateTime.fromISO(iso, { setZone: true }).toUTC().toISO()!;
}
