import { ApiError, type ConversationReportRow, type ReportGrouping } from '../../api';

// The Reports page's periods and its figures in words, kept apart from the page so they can be checked on their own.

/** The periods the picker offers; `custom`: two days the reader picks. */
export type PeriodChoice = 'this_week' | 'last_7_days' | 'this_month' | 'last_month' | 'custom';
export const PERIOD_CHOICES: readonly { value: PeriodChoice; label: string }[] = [
  { value: 'this_week', label: 'This week' },
  { value: 'last_7_days', label: 'Last 7 days' },
  { value: 'this_month', label: 'This month' },
  { value: 'last_month', label: 'Last month' },
  { value: 'custom', label: 'Custom dates' },
];

/** Two days, both included (`YYYY-MM-DD`). */
export interface Days {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A date's day in the browser's own time zone (the zone the report is asked in). */
export const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const dayOf = (year: number, month: number, day: number) => localDay(new Date(year, month, day));

/** A preset period's days in the browser's time zone; weeks start on Monday. */
export function presetDays(choice: Exclude<PeriodChoice, 'custom'>, now = new Date()): Days {
  const [y, m, d] = [now.getFullYear(), now.getMonth(), now.getDate()];
  const today = localDay(now);
  switch (choice) {
    case 'this_week':
      return { from: dayOf(y, m, d - ((now.getDay() + 6) % 7)), to: today };
    case 'last_7_days':
      return { from: dayOf(y, m, d - 6), to: today };
    case 'this_month':
      return { from: dayOf(y, m, 1), to: today };
    case 'last_month':
      return { from: dayOf(y, m - 1, 1), to: dayOf(y, m, 0) };
  }
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A `YYYY-MM-DD` day as the UTC midnight of that date (so formatting it in UTC shows that very date). */
const utcOf = (day: string) => {
  const parts = DAY.exec(day);
  return parts ? Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])) : Number.NaN;
};

/** Every day from `from` to `to`, both included (at most `limit`): the chart's axis, days without conversations too. */
export function daysBetween({ from, to }: Days, limit = 400): string[] {
  const start = utcOf(from);
  const end = utcOf(to);
  const days: string[] = [];
  for (let t = start; t <= end && days.length < limit; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** "Mon, Mar 9" (with the year when asked): a report's day as people read it. */
export function dayInWords(day: string, withYear = false): string {
  const t = utcOf(day);
  if (Number.isNaN(t)) return day;
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' }).format(t);
}

/** "Mar 9" (with the year when asked): a day under a chart's axis. */
export function shortDay(day: string, withYear = false): string {
  const t = utcOf(day);
  if (Number.isNaN(t)) return day;
  return new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' }).format(t);
}

/** "Mar 2 – 8, 2026"; one day: "Mar 2, 2026". */
export function periodInWords({ from, to }: Days): string {
  const [a, b] = [utcOf(from), utcOf(to)];
  if (Number.isNaN(a) || Number.isNaN(b)) return `${from} – ${to}`;
  const format = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return a === b ? format.format(a) : b < a ? `${format.format(a)} – ${format.format(b)}` : format.formatRange(a, b);
}

/** Whether the days lie in more than one year (then each day says its year). */
export const spansYears = ({ from, to }: Days) => from.slice(0, 4) !== to.slice(0, 4);

/**
 * A length of time as people say it: "45 s", "4 min", "1 h 20 min", "2 days 3 h". Rounded to the minute from a
 * minute on, to the hour from a day on. Null (nothing to measure): undefined.
 */
export function durationInWords(seconds: number | null): string | undefined {
  if (seconds === null || !Number.isFinite(seconds)) return undefined;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const allHours = Math.round(minutes / 60);
  const days = Math.floor(allHours / 24);
  const rest = allHours % 24;
  const dayWords = `${days} ${days === 1 ? 'day' : 'days'}`;
  return rest ? `${dayWords} ${rest} h` : dayWords;
}

/** "62%" of a part of a whole; nothing of nothing: undefined. */
export function percentOf(part: number, whole: number): string | undefined {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : undefined;
}

/** "4.3 / 5 (12 ratings)", or "No ratings yet". */
export function csatInWords(average: number | null, count: number): string {
  if (!count || average === null) return 'No ratings yet';
  return `${average.toFixed(1)} / 5 (${count} ${count === 1 ? 'rating' : 'ratings'})`;
}

/** The counts of a period, added up over its rows (each conversation is in exactly one row, whatever the grouping). */
export interface PeriodTotals {
  opened: number;
  closed: number;
  resolvedByAgent: number;
  handedOff: number;
  slaBreaches: number;
  /** The average of every rating of the period (each row's average weighted by its number of ratings); null: none. */
  csatAverage: number | null;
  csatCount: number;
}

export function periodTotals(rows: readonly ConversationReportRow[]): PeriodTotals {
  const sum = (pick: (r: ConversationReportRow) => number) => rows.reduce((total, r) => total + pick(r), 0);
  const csatCount = sum((r) => (r.csat_avg === null ? 0 : r.csat_count));
  return {
    opened: sum((r) => r.opened),
    closed: sum((r) => r.closed),
    resolvedByAgent: sum((r) => r.resolved_by_agent),
    handedOff: sum((r) => r.handed_off),
    slaBreaches: sum((r) => r.sla_breaches),
    csatAverage: csatCount ? sum((r) => (r.csat_avg === null ? 0 : r.csat_avg * r.csat_count)) / csatCount : null,
    csatCount,
  };
}

/** What one row of each grouping is, in words ("each day"), and the table's first column. */
export const GROUPINGS: Record<ReportGrouping, { label: string; each: string; column: string }> = {
  day: { label: 'By day', each: 'each day', column: 'Day' },
  member: { label: 'By team member', each: 'each team member', column: 'Team member' },
  team: { label: 'By team', each: 'each team', column: 'Team' },
  channel: { label: 'By channel', each: 'each channel', column: 'Channel' },
};

/** What the report's own query parameters are called on this page. */
const PARAMETERS: Record<string, string> = { from: 'The start date', to: 'The end date', tz: 'Your time zone', group_by: 'The grouping' };

/** One refused parameter as a sentence for people ("The end date must not be before the start date."). */
function parameterSentence(field: string, message: string): string {
  const subject = PARAMETERS[field] ?? `The ${field.replace(/_/g, ' ')}`;
  const rule = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  if (/before from/.test(rule)) return `${subject} must not be before the start date.`;
  if (/at most a year/.test(rule)) return 'The period can be at most a year long.';
  if (/YYYY-MM-DD/.test(rule)) return `${subject} must be a date.`;
  if (/time zone/i.test(rule)) return `${subject} is not one the server knows.`;
  return /[.!?]$/.test(rule) ? `${subject} ${rule}` : `${subject} ${rule}.`;
}

/** What the reader should see of a report that failed: the server's `detail` and a sentence per refused parameter. */
export function reportErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.fieldErrors.map((e) => parameterSentence(e.field, e.message));
    return [err.message, ...fields].join(' ');
  }
  return err instanceof Error ? err.message : String(err);
}
