import { DEFAULT_BOOKING, WEEKDAYS, type Booking, type Weekday } from '@parley/contracts';
import * as chrono from 'chrono-node';
import { DateTime } from 'luxon';
import type { Language } from '../knowledge/language';
import { listed, phrasesIn } from './dialogue-phrases';

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

export interface WhenOptions {
  /** The customer's language: its chrono-node locale reads the text first, then the English one (people mix). */
  language?: Language;
  /**
   * A number standing alone is an hour ("actually 11 would be better", "mejor 11"): only while a booking is being
   * discussed, where nothing else makes sense of it.
   */
  bareHour?: boolean;
}

// The day words of each language but English (read first or second anyway).
const LANGUAGES_BY_DAY_WORDS: [Language, RegExp][] = [
  ['es', /\b(lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|mañana|hoy|pasado)\b/iu],
  ['pt', /\b(segunda|ter[çc]a|quarta|quinta|sexta|s[áa]bado|domingo|amanh[ãa]|hoje)/iu],
  ['fr', /\b(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|demain|aujourd)/iu],
  ['de', /\b(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgen|heute)|übermorgen/iu],
];

const PARSERS: Record<Language, chrono.Chrono> = { en: chrono.en.casual, es: chrono.es.casual, pt: chrono.pt.casual, fr: chrono.fr.casual, de: chrono.de.casual };

/**
 * A day and/or time in free text ("thursday at 2pm", "tmrw 10:30", "el viernes a las 4", "morgen um 10"), read by
 * chrono-node in the customer's language and in the agent's timezone: "tomorrow" is tomorrow there, and the wall-clock
 * time is that zone's.
 */
export function parseWhen(text: string, timezone: string, now: Date, options: WhenOptions = {}): When {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  const normalised = normaliseWhen(text, options.bareHour ?? false);
  const language = options.language ?? 'en';
  // The customer's language first, then English, then any other language whose day words appear (a short message may
  // have been taken for another language: "réserver mardi à 10h").
  const others = LANGUAGES_BY_DAY_WORDS.filter(([l, words]) => l !== language && words.test(normalised)).map(([l]) => PARSERS[l]);
  const parsers = [...new Set([PARSERS[language], PARSERS.en, ...others])];
  const when: When = { date: null, time: null };
  for (const parser of parsers) {
    for (const r of parser.parse(normalised, { instant: now, timezone: local.offset }, { forwardDate: true })) {
      // Another language's short word is too weak a clue: English reads the French "mon" as Monday.
      if (parser !== PARSERS[language] && /^\p{L}{1,3}\.?$/u.test(r.text.trim())) continue;
      const c = r.start;
      if (!when.date && (c.isCertain('day') || c.isCertain('weekday'))) when.date = { year: c.get('year')!, month: c.get('month')!, day: c.get('day')! };
      if (!when.time && c.isCertain('hour')) when.time = { hour: c.get('hour')!, minute: c.get('minute') ?? 0 };
    }
    if (when.date && when.time) break;
  }
  return when;
}

// What a bare hour may not be followed by: it is then a date, a count or a price.
const NOT_AN_HOUR = String.raw`(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|st|nd|rd|th|º|ª|\.|\/|-|%|€|\$|people|ppl|persons?|hours?|hrs?|horas?|heures?|stunden?|personas?|pessoas?|personnes?|personen|min|de\s+\p{L}+|d[eu]\s|of\s))`;
// Words that put an hour after them: "at 3", "a las 4", "às 4", "à 4", "um 4", "make it 11".
const HOUR_AFTER = new RegExp(String.raw`(^|[^\p{L}])(at|make it|around|about|say|by|a las|las|a la|às|as|à|a|vers|um|gegen|ab|alle)\s+(\d{1,2})\b${NOT_AN_HOUR}`, 'giu');
const BARE_NUMBER = new RegExp(String.raw`(^|[^\p{L}\d:.,/-])(\d{1,2})\b${NOT_AN_HOUR}`, 'gu');

const LATER_IN_THE_DAY =
  /\b(\d{1,2})(?:[:.](\d{2}))?\s*(?:h\s*)?(?:de la tarde|de la noche|da tarde|da noite|à tarde|a tarde|du soir|de l'apr[eè]s-midi|de l’apr[eè]s-midi|abends|nachmittags|in the (?:afternoon|evening))\b/giu;
const EARLY_CLOCK = /(^|[^\d:.])([1-7])[:.]([0-5]\d)\b(?!\s*(?:am|a\.m|pm|p\.m|uhr morgens|de la ma[nñ]ana|da manh[aã]|du matin))/giu;

/** A bare hour as a receptionist reads it: 1–7 is the afternoon. */
function clock(h: string): string | null {
  const hour = Number(h);
  if (hour < 1 || hour > 23) return null;
  return `${hour <= 7 ? hour + 12 : hour}:00`;
}

// Common shorthand chrono does not know, in the five languages.
function normaliseWhen(text: string, bareHour: boolean): string {
  let t = text
    .replace(/\btmrw\b|\btmr\b|\btomoz\b|\btommorow\b|\btomorow\b|\btommorrow\b|\btomorro\b/gi, 'tomorrow')
    .replace(/\bthurs\b|\bthur\b/gi, 'thursday')
    .replace(/\btues\b/gi, 'tuesday')
    .replace(/\bweds\b/gi, 'wednesday')
    .replace(/\bmanana\b/gi, 'mañana')
    .replace(/\bamanha\b/gi, 'amanhã')
    // Portuguese weekdays without "-feira" ("sexta às 4"), which chrono's pt locale reads only in full.
    .replace(/\b(segunda|ter[çc]a|quarta|quinta|sexta)(?!-feira)\b/giu, (_, d: string) => `${d}-feira`)
    // "16h", "16h30", "16 Uhr", "10 o'clock": a clock time.
    .replace(/\b(\d{1,2})\s*h(\d{2})?\b/gi, (_, h: string, m: string | undefined) => `${h}:${m ?? '00'}`)
    .replace(/\b(\d{1,2})\s*(?:o'?clock|uhr)\b/gi, '$1:00')
    .replace(/\bnoon\b|\bmidday\b|\bmediod[ií]a\b|\bmeio-dia\b|\bmidi\b|\bmittags?\b/gi, '12:00');
  // An hour said to be in the afternoon or evening ("a las 7 de la tarde", "às 8 da noite", "à 6h du soir", "um 7 abends").
  t = t.replace(LATER_IN_THE_DAY, (whole, h: string, m: string | undefined) => (Number(h) >= 1 && Number(h) <= 11 ? `${Number(h) + 12}:${m ?? '00'}` : whole));
  // A clock time of 1:00–7:59 with no am or pm is the afternoon too ("friday at 2:30"), as a bare hour is.
  t = t.replace(EARLY_CLOCK, (_, pre: string, h: string, m: string) => `${pre}${Number(h) + 12}:${m}`);
  // A bare hour after a word that announces one ("make it 11", "at 3"): chrono leaves it alone.
  t = t.replace(HOUR_AFTER, (whole, pre: string, word: string, h: string) => (clock(h) ? `${pre}${word} ${clock(h)}` : whole));
  if (bareHour && !/\d[:.]\d{2}/.test(t)) t = t.replace(BARE_NUMBER, (whole, pre: string, h: string) => (clock(h) ? `${pre}${clock(h)}` : whole));
  return t;
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

/** "Mon 24 Nov, 10:00" in the customer's language ("lun. 24 nov., 10:00"). */
export function formatSlot(slot: DateTime, language: Language = 'en'): string {
  return slot.setLocale(language).toFormat('ccc d LLL, HH:mm');
}

/** A day in the customer's language: "Mon 24 Nov". */
export function formatDay(day: DateTime, language: Language = 'en'): string {
  return day.setLocale(language).toFormat('ccc d LLL');
}

/** "Mon 24 Nov at 09:00, 09:30 or 10:00" when they share a day, else each with its day. */
export function formatSlots(slots: DateTime[], language: Language = 'en'): string {
  const sameDay = slots.every((s) => s.hasSame(slots[0], 'day'));
  if (!sameDay) return listed(slots.map((s) => formatSlot(s, language)), language);
  return `${formatDay(slots[0], language)} ${phrasesIn(language).at} ${listed(slots.map((s) => s.toFormat('HH:mm')), language)}`;
}

/** The opening hours in words, in the customer's language: "Mon–Fri 09:00–17:00". */
export function describeHours(booking: Booking, language: Language = 'en'): string {
  const groups: { days: Weekday[]; hours: string }[] = [];
  for (const day of WEEKDAYS) {
    const ranges = booking.opening_hours[day];
    if (!ranges?.length) continue;
    const hours = ranges.map(([a, b]) => `${a}–${b}`).join(', ');
    const last = groups[groups.length - 1];
    if (last && last.hours === hours && WEEKDAYS.indexOf(last.days[last.days.length - 1]) === WEEKDAYS.indexOf(day) - 1) last.days.push(day);
    else groups.push({ days: [day], hours });
  }
  const name = (d: Weekday) => DateTime.fromObject({ weekday: (WEEKDAYS.indexOf(d) + 1) as 1 }).setLocale(language).toFormat('ccc');
  return groups.map((g) => `${name(g.days[0])}${g.days.length > 1 ? `–${name(g.days[g.days.length - 1])}` : ''} ${g.hours}`).join('; ');
}
