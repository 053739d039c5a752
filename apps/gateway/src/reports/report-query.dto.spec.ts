import { reportPeriodErrors } from './report-query.dto';

describe('a report period', () => {
  const fields = (from: string, to: string) => reportPeriodErrors({ from, to }).map((e) => e.field);

  it('takes real days and times, in order, at most a year apart', () => {
    expect(fields('2026-11-01', '2026-11-30')).toEqual([]);
    expect(fields('2026-11-01T00:00:00Z', '2026-11-02T06:00:00+01:00')).toEqual([]);
    expect(fields('2026-01-01', '2026-12-31')).toEqual([]);
  });

  it('names the bound that is no real day or time, rather than reading it as another', () => {
    expect(fields('2026-02-30', '2026-03-31')).toEqual(['from']); // Date.parse would take it for 2 March
    expect(fields('2026-01-01', '2026-13-45')).toEqual(['to']);
    expect(fields('2026-01-01T25:00Z', '2026-01-02')).toEqual(['from']);
  });

  it('refuses a period that ends before it starts or spans more than a year', () => {
    expect(reportPeriodErrors({ from: '2026-12-06', to: '2026-01-01' })).toEqual([{ field: 'to', message: 'to must not be before from' }]);
    expect(fields('2025-01-01', '2026-06-01')).toEqual(['to']);
  });
});
