import { isBusinessScopedUserId, isE164, isIanaTimeZone, openingHoursError } from './validators';

describe('validators', () => {
  it.each([
    ['+14155550123', true],
    ['+442071838750', true],
    ['14155550123', false],
    ['+123', false],
    ['+1415555012a', false],
    ['+999999999999', false],
  ])('isE164(%s) is %s', (value, expected) => {
    expect(isE164(value)).toBe(expected);
  });

  it('gives the same verdict when a number is checked again (remembered verdicts)', () => {
    for (let round = 0; round < 2; round++) {
      expect(isE164('+14155550123')).toBe(true);
      expect(isE164('+999999999999')).toBe(false);
    }
  });

  it('recognises business-scoped user ids', () => {
    expect(isBusinessScopedUserId('US.13491208655302741918')).toBe(true);
    expect(isBusinessScopedUserId('+14155550123')).toBe(false);
    expect(isBusinessScopedUserId('us.1')).toBe(false);
  });

  it('accepts IANA time zones only', () => {
    expect(isIanaTimeZone('Europe/Berlin')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
  });

  it('explains what is wrong with opening hours', () => {
    expect(openingHoursError({ mon: [['09:00', '17:00']], sat: [] })).toBeNull();
    expect(openingHoursError({ monday: [['09:00', '17:00']] })).toContain('unknown day "monday"');
    expect(openingHoursError({ mon: [['17:00', '09:00']] })).toContain('must end after it starts');
    expect(openingHoursError({ mon: [['09:00', '13:00'], ['12:00', '17:00']] })).toContain('must not overlap');
    expect(openingHoursError({ mon: [['9am', '5pm']] })).toContain('HH:MM');
    expect(openingHoursError([])).toContain('object keyed by weekday');
  });
});
