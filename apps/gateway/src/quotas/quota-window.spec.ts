import { nextUtcMidnight, secondsUntilReset, utcDay } from './quota-window';

describe('quota window', () => {
  it('is the UTC calendar day, whatever the time of day', () => {
    expect(utcDay(new Date('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22');
    expect(utcDay(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
  });

  it('resets at the next UTC midnight, across month and year ends', () => {
    expect(nextUtcMidnight(new Date('2026-11-22T13:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-11-30T23:59:59Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-12-31T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('counts whole seconds to the reset, never 0', () => {
    expect(secondsUntilReset(new Date('2026-11-22T00:00:00Z'))).toBe(86_400);
    expect(secondsUntilReset(new Date('2026-11-22T23:00:00Z'))).toBe(3600);
    expect(secondsUntilReset(new Date('2026-11-22T23:59:59.500Z'))).toBe(1);
    expect(secondsUntilReset(new Date('2026-11-22T23:59:59.999Z'))).toBe(1);
  });
});
