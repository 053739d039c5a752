import { WEEKDAYS, type Weekday } from '@parley/contracts';
import { DateTime } from 'luxon';

/** When a team answers: weekly periods in its time zone, and whole days off. */
export interface BusinessHours {
  timezone: string;
  business_hours: Partial<Record<Weekday, [string, string][]>>;
  holidays: string[];
}

/** Holidays may be a year ahead: far enough to find the next opening after any run of them. */
const SEARCH_DAYS = 400;

/** Whether `at` falls inside one of the team's periods (holidays are closed all day). */
export function isOpen(hours: BusinessHours, at: Date): boolean {
  const local = DateTime.fromJSDate(at, { zone: hours.timezone });
  if (hours.holidays.includes(local.toISODate() ?? '')) return false;
  const clock = local.toFormat('HH:mm');
  return periodsOf(hours, local).some(([start, end]) => clock >= start && clock < end);
}

/** The start of the team's next period after `at`; null when open at `at`, or when it never opens. */
export function nextOpening(hours: BusinessHours, at: Date): Date | null {
  if (isOpen(hours, at)) return null;
  const local = DateTime.fromJSDate(at, { zone: hours.timezone });
  for (let d = 0; d < SEARCH_DAYS; d++) {
    const day = local.startOf('day').plus({ days: d });
    if (hours.holidays.includes(day.toISODate() ?? '')) continue;
    for (const [start] of periodsOf(hours, day)) {
      const [hour, minute] = start.split(':').map(Number);
      const opens = day.set({ hour, minute });
      if (opens > local) return opens.toJSDate();
    }
  }
  return null;
}

function periodsOf(hours: BusinessHours, day: DateTime): [string, string][] {
  return hours.business_hours[WEEKDAYS[day.weekday - 1]] ?? [];
}
