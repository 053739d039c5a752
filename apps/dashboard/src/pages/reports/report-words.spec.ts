import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api';
import { csatInWords, daysBetween, durationInWords, periodTotals, presetDays, reportErrorText } from './report-words';

const row = (opened: number, csat_avg: number | null, csat_count: number) => ({
  key: null,
  opened,
  closed: 1,
  resolved_by_agent: 1,
  handed_off: 0,
  first_response_p50_s: null,
  first_response_p90_s: null,
  resolution_p50_s: null,
  resolution_p90_s: null,
  sla_breaches: 1,
  csat_avg,
  csat_count,
});

describe('report words', () => {
  it('finds the preset periods’ days: weeks from Monday, last month across a new year', () => {
    const sunday = new Date(2026, 2, 8, 23, 30);
    expect(presetDays('this_week', sunday)).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(presetDays('this_week', new Date(2026, 2, 9, 0, 10))).toEqual({ from: '2026-03-09', to: '2026-03-09' });
    expect(presetDays('last_7_days', new Date(2026, 2, 3, 9))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(presetDays('this_month', new Date(2026, 2, 3, 9))).toEqual({ from: '2026-03-01', to: '2026-03-03' });
    expect(presetDays('last_month', new Date(2026, 0, 20, 9))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetDays('last_month', new Date(2024, 2, 31, 9))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('lists every day of a period, both ends included, across a month end', () => {
    expect(daysBetween({ from: '2026-02-27', to: '2026-03-02' })).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(daysBetween({ from: '2026-03-02', to: '2026-03-01' })).toEqual([]);
  });

  it('says lengths of time as people do', () => {
    expect([0, 45, 89, 240, 3599, 3600, 4800, 86_399, 93_600, 172_800].map((s) => durationInWords(s))).toEqual([
      '0 s',
      '45 s',
      '1 min',
      '4 min',
      '1 h',
      '1 h',
      '1 h 20 min',
      '1 day',
      '1 day 2 h',
      '2 days',
    ]);
    expect(durationInWords(null)).toBeUndefined();
  });

  it('adds up counts and averages every rating of the period, not the rows’ averages', () => {
    const totals = periodTotals([row(3, 5, 1), row(4, 2, 3), row(5, null, 0)]);
    expect(totals).toMatchObject({ opened: 12, closed: 3, resolvedByAgent: 3, slaBreaches: 3, csatCount: 4 });
    expect(csatInWords(totals.csatAverage, totals.csatCount)).toBe('2.8 / 5 (4 ratings)');
    expect(csatInWords(null, 0)).toBe('No ratings yet');
    expect(csatInWords(5, 1)).toBe('5.0 / 5 (1 rating)');
  });

  it('says a refused period in the page’s words, not the API’s parameter names', () => {
    const refused = new ApiError(400, 'The query parameters are not valid.', [{ field: 'to', message: 'to must not be before from' }]);
    expect(reportErrorText(refused)).toBe('The query parameters are not valid. The end date must not be before the start date.');
    const badDay = new ApiError(400, 'The query parameters are not valid.', [{ field: 'from', message: 'from must be a day YYYY-MM-DD (in tz) or an RFC 3339 time such as 2026-12-01T00:00:00Z' }]);
    expect(reportErrorText(badDay)).toBe('The query parameters are not valid. The start date must be a date.');
    expect(reportErrorText(new ApiError(503, 'Reports are not available right now. Try again in a minute.'))).toBe('Reports are not available right now. Try again in a minute.');
  });
});
