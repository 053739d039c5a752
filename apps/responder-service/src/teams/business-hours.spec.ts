import { isOpen, nextOpening, type BusinessHours } from './business-hours';

const MADRID: BusinessHours = {
  timezone: 'Europe/Madrid',
  business_hours: { mon: [['09:00', '12:30'], ['13:30', '18:00']], tue: [['09:00', '18:00']], sat: [['10:00', '14:00']] },
  holidays: ['2026-12-08'],
};

describe('business hours', () => {
  it('is open inside a period in the team’s time zone, closed at lunch, after hours and on holidays', () => {
    expect(isOpen(MADRID, new Date('2026-12-07T08:00:00Z'))).toBe(true); // Mon 09:00 Madrid
    expect(isOpen(MADRID, new Date('2026-12-07T07:59:00Z'))).toBe(false); // Mon 08:59
    expect(isOpen(MADRID, new Date('2026-12-07T11:45:00Z'))).toBe(false); // Mon 12:45, lunch
    expect(isOpen(MADRID, new Date('2026-12-07T17:00:00Z'))).toBe(false); // Mon 18:00, the end is not open
    expect(isOpen(MADRID, new Date('2026-12-08T10:00:00Z'))).toBe(false); // a Tuesday holiday
  });

  it('finds the next opening: after lunch, the next working day past a holiday, none while open', () => {
    expect(nextOpening(MADRID, new Date('2026-12-07T11:45:00Z'))?.toISOString()).toBe('2026-12-07T12:30:00.000Z'); // 13:30 Madrid
    // Mon evening → Tue is a holiday → Sat 10:00
    expect(nextOpening(MADRID, new Date('2026-12-07T18:00:00Z'))?.toISOString()).toBe('2026-12-12T09:00:00.000Z');
    expect(nextOpening(MADRID, new Date('2026-12-07T09:00:00Z'))).toBeNull();
    expect(nextOpening({ timezone: 'UTC', business_hours: {}, holidays: [] }, new Date())).toBeNull();
  });

  it('keeps wall-clock hours across a daylight-saving change', () => {
    // Sun 29 Mar 2026 Madrid moves to UTC+2: Monday's 09:00 is 07:00 UTC
    expect(nextOpening(MADRID, new Date('2026-03-28T20:00:00Z'))?.toISOString()).toBe('2026-03-30T07:00:00.000Z');
  });
});
