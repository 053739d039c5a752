import { IsIanaTimeZone, REPORT_GROUPINGS, isCalendarDate, type FieldError, type ReportGrouping } from '@parley/contracts';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

const WHEN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const WHEN_RULE = (field: string) => `${field} must be a day YYYY-MM-DD (in tz) or an RFC 3339 time such as 2026-12-01T00:00:00Z`;

/** `GET /api/v1/reports/conversations?from=&to=&group_by=&tz=` (CONTRACT.md §18); the CSV takes the same but `group_by`. */
export class ReportQueryDto {
  /** The first day (or instant) of the period. */
  @IsString({ message: WHEN_RULE('from') })
  @Matches(WHEN, { message: WHEN_RULE('from') })
  from!: string;

  /** The last day of the period, included (or the instant it ends, excluded). */
  @IsString({ message: WHEN_RULE('to') })
  @Matches(WHEN, { message: WHEN_RULE('to') })
  to!: string;

  @IsOptional()
  @IsIn(REPORT_GROUPINGS, { message: `group_by must be one of: ${REPORT_GROUPINGS.join(', ')}` })
  group_by?: ReportGrouping;

  /** The time zone days are counted in (default UTC). */
  @IsOptional()
  @IsIanaTimeZone({ message: 'tz must be an IANA time zone such as Europe/Madrid' })
  tz?: string;
}

/** A year and a day: a report of a longer period is many reports. */
const MAX_PERIOD_MS = 367 * 24 * 60 * 60 * 1000;

/**
 * What the rules of each bound alone cannot see: a day that does not exist (2026-02-30, which Date.parse rolls into
 * March), an hour past 23, `to` before `from`, a period over a year. Empty when the period is good.
 */
export function reportPeriodErrors(query: Pick<ReportQueryDto, 'from' | 'to'>): FieldError[] {
  const instant = (field: 'from' | 'to'): number | null => {
    const value = query[field];
    const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? (isCalendarDate(value) ? Date.parse(value) : NaN) : Date.parse(value);
    return Number.isNaN(at) ? null : at;
  };
  const from = instant('from');
  const to = instant('to');
  const errors: FieldError[] = [];
  if (from === null) errors.push({ field: 'from', message: `from "${query.from}" is not a real day or time` });
  if (to === null) errors.push({ field: 'to', message: `to "${query.to}" is not a real day or time` });
  if (from === null || to === null) return errors;
  if (to < from) errors.push({ field: 'to', message: 'to must not be before from' });
  else if (to - from > MAX_PERIOD_MS) errors.push({ field: 'to', message: 'the period must be at most a year (to − from ≤ 366 days)' });
  return errors;
}
