import { periodOf } from './reports.service';

describe('a report’s period', () => {
  it('takes days whole, from midnight in the report’s time zone, the last day included', () => {
    expect(periodOf({ from: '2026-11-10', to: '2026-11-11', tz: 'Europe/Madrid', member: null })).toMatchObject({ from: '2026-11-09T23:00:00.000Z', to: '2026-11-11T23:00:00.000Z' });
    expect(periodOf({ from: '2026-03-29', to: '2026-03-29', tz: 'Europe/Madrid', member: null })).toMatchObject({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' });
  });

  it('takes instants as given, the end excluded', () => {
    expect(periodOf({ from: '2026-11-10T06:00:00+01:00', to: '2026-11-10T18:00:00Z', tz: 'UTC', member: null })).toMatchObject({ from: '2026-11-10T05:00:00.000Z', to: '2026-11-10T18:00:00.000Z' });
  });
});
