import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { registerDecorator, type ValidationOptions } from 'class-validator';
import { WEEKDAYS } from '../events/agents';

/**
 * Verdicts of `isE164` on recent numbers: parsing against the full metadata is a few % of a send's CPU, and the same
 * numbers come back again and again. Bounded: forgotten all at once when full.
 */
const E164_VERDICTS = new Map<string, boolean>();
const E164_VERDICTS_MAX = 10_000;

/** A valid E.164 number with its leading `+`, checked against real numbering plans. */
export function isE164(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\+[1-9]\d{6,14}$/.test(value)) return false;
  let verdict = E164_VERDICTS.get(value);
  if (verdict === undefined) {
    const parsed = parsePhoneNumberFromString(value);
    verdict = !!parsed && parsed.isValid() && parsed.number === value;
    if (E164_VERDICTS.size >= E164_VERDICTS_MAX) E164_VERDICTS.clear();
    E164_VERDICTS.set(value, verdict);
  }
  return verdict;
}

/** A WhatsApp business-scoped user id, e.g. `US.13491208655302741918`. */
export function isBusinessScopedUserId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{2}\.[0-9A-Za-z]{6,64}$/.test(value);
}

export function isIanaTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** `{"mon": [["09:00","17:00"]], ...}`: known days, ordered non-overlapping `HH:MM` ranges. */
export function openingHoursError(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object keyed by weekday (mon … sun)';
  for (const [day, ranges] of Object.entries(value)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) return `has an unknown day "${day}"; allowed: ${WEEKDAYS.join(', ')}`;
    if (!Array.isArray(ranges) || ranges.length > 12) return `${day} must be a list of at most 12 ["HH:MM","HH:MM"] ranges`;
    let previousEnd = '';
    for (const range of ranges) {
      if (!Array.isArray(range) || range.length !== 2 || !range.every((t) => typeof t === 'string' && HHMM.test(t))) {
        return `${day} ranges must be ["HH:MM","HH:MM"] pairs of 24-hour times`;
      }
      const [start, end] = range as [string, string];
      if (start >= end) return `${day} range ${start}-${end} must end after it starts`;
      if (previousEnd && start < previousEnd) return `${day} ranges must be in order and must not overlap`;
      previousEnd = end;
    }
  }
  return null;
}

function simpleDecorator(name: string, test: (value: unknown) => boolean, message: string, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value: unknown) => test(value) },
    });
}

export const IsRecipient = (options?: ValidationOptions) =>
  simpleDecorator(
    'isRecipient',
    (v) => isE164(v) || isBusinessScopedUserId(v),
    '$property must be a valid phone number in E.164 format with a leading + (e.g. +14155550123) or a WhatsApp business-scoped user id',
    options,
  );

/** An email address as a send's `to` takes it (the common `local@domain.tld` shape, no display name). */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && /^[^\s@<>()",;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(value);
}

/** Whom a send on `channel` may go to (CONTRACT.md §4, §17), and the rule a refusal names. */
export function recipientRule(channel: unknown): { valid: (v: unknown) => boolean; message: string } {
  if (channel === 'email') return { valid: isEmailAddress, message: 'to must be an email address on the email channel' };
  if (channel === 'sms') return { valid: isE164, message: 'to must be a valid phone number in E.164 format with a leading + (e.g. +14155550123) on the sms channel' };
  return {
    valid: (v) => isE164(v) || isBusinessScopedUserId(v),
    message: 'to must be a valid phone number in E.164 format with a leading + (e.g. +14155550123) or a WhatsApp business-scoped user id',
  };
}

/** `to` of a send: checked by the send's `channel` (see recipientRule). */
export function IsChannelRecipient(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isChannelRecipient',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown, args) => recipientRule((args?.object as { channel?: unknown })?.channel).valid(value),
        defaultMessage: (args) => recipientRule((args?.object as { channel?: unknown })?.channel).message,
      },
    });
}

/** `from` of a send: one of the tenant's numbers, or on the email channel one of its addresses. */
export function IsChannelSender(options?: ValidationOptions) {
  const rule = (channel: unknown) => (channel === 'email' ? { valid: isEmailAddress, message: 'from must be an email address on the email channel' } : { valid: isE164, message: 'from must be a valid phone number in E.164 format with a leading + (e.g. +14155550123)' });
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isChannelSender',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown, args) => rule((args?.object as { channel?: unknown })?.channel).valid(value),
        defaultMessage: (args) => rule((args?.object as { channel?: unknown })?.channel).message,
      },
    });
}

export const IsE164 = (options?: ValidationOptions) =>
  simpleDecorator('isE164', isE164, '$property must be a valid phone number in E.164 format with a leading + (e.g. +14155550123)', options);

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30), with no time or zone. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const IsCalendarDate = (options?: ValidationOptions) =>
  simpleDecorator('isCalendarDate', isCalendarDate, '$property must be a calendar date YYYY-MM-DD, such as 2026-03-31', options);

export const IsIanaTimeZone = (options?: ValidationOptions) =>
  simpleDecorator('isIanaTimeZone', isIanaTimeZone, '$property must be an IANA time zone such as Europe/Berlin', options);

export function IsOpeningHours(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isOpeningHours',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => openingHoursError(value) === null,
        defaultMessage: (args) => `${args?.property} ${openingHoursError(args?.value) ?? 'is not valid'}`,
      },
    });
}
