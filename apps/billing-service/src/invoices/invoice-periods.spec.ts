import { closedMonthsSince } from './invoice-periods';

describe('closedMonthsSince', () => {
  const d = (iso: string) => new Date(iso);

  it('lists each ended calendar month from the start, never the current one', () => {
    expect(closedMonthsSince(d('2026-09-01T00:00:00Z'), d('2026-11-28T21:00:00Z'))).toEqual([
      { start: d('2026-09-01T00:00:00Z'), end: d('2026-10-01T00:00:00Z') },
      { start: d('2026-10-01T00:00:00Z'), end: d('2026-11-01T00:00:00Z') },
    ]);
  });

  it('starts mid-month where an earlier invoice ended, and crosses the year', () => {
    expect(closedMonthsSince(d('2025-12-15T10:30:00Z'), d('2026-01-01T00:00:00Z'))).toEqual([{ start: d('2025-12-15T10:30:00Z'), end: d('2026-01-01T00:00:00Z') }]);
  });

  it('has nothing to close within the current month', () => {
    expect(closedMonthsSince(d('2026-11-03T00:00:00Z'), d('2026-11-28T21:00:00Z'))).toEqual([]);
  });
});
