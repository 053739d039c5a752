import { toMinorUnits } from './payment-provider';

describe('toMinorUnits', () => {
  it('counts cents for two-decimal currencies and whole units for zero-decimal ones, exactly', () => {
    expect(toMinorUnits('20.5', 'USD')).toBe(2050);
    expect(toMinorUnits('19.99', 'EUR')).toBe(1999);
    expect(toMinorUnits('1', 'USD')).toBe(100);
    expect(toMinorUnits('12.000000', 'USD')).toBe(1200);
    expect(toMinorUnits('5000', 'JPY')).toBe(5000);
    // 0.29 * 100 is 28.999999999999996 in floating point; the digits are moved, not multiplied.
    expect(toMinorUnits('0.29', 'USD')).toBe(29);
  });

  it('refuses an amount finer than the currency’s minor unit', () => {
    expect(() => toMinorUnits('1.005', 'USD')).toThrow(/more decimals/);
    expect(() => toMinorUnits('10.5', 'JPY')).toThrow(/more decimals/);
  });
});
