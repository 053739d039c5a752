import type { Weekday } from '../api';

/** Each weekday's name, as the API's keys (`mon`, …) are shown. */
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** A timestamp in the reader's own locale and time zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * A timestamp in a given IANA time zone (an agent's booking zone, not the reader's), with the zone's short name:
 * "Mon, Jun 2, 2025, 9:00 AM GMT-4".
 */
export function formatTimeIn(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return date.toLocaleString(undefined, { timeZone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  } catch {
    return `${date.toLocaleString()} (your time; ${timeZone} is not a known time zone)`;
  }
}

/** "1 number", "3 numbers"; `plural` when it is not `singular` + "s". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** A length of time as read at a glance, rounded: "5 min", "3 h", "2 days" (under a minute: "1 min"). */
export function formatSpan(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 60) return `${Math.max(1, minutes)} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : countOf(Math.round(hours / 24), 'day');
}

/** How long ago a past timestamp was: "3 h ago" ("just now" under a minute). */
export function formatAgo(iso: string, now = Date.now()): string {
  const ms = now - new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  return ms < 60_000 ? 'just now' : `${formatSpan(ms)} ago`;
}

/** How long until a coming timestamp: "in 20 h" ("now" once it is due). */
export function formatUntil(iso: string, now = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (Number.isNaN(ms)) return iso;
  return ms <= 0 ? 'now' : `in ${formatSpan(ms)}`;
}
