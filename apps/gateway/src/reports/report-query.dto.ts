import { IsIanaTimeZone, REPORT_GROUPINGS, type ReportGrouping } from '@parley/contracts';
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
