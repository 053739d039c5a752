import { amountForPeople } from './amount-for-people';

describe('amountForPeople', () => {
  it('shows cents, and finer digits only where the amount has them', () => {
    expect(amountForPeople('0.150000')).toBe('0.15');
    expect(amountForPeople('0.004500')).toBe('0.0045');
    expect(amountForPeople('12.000000')).toBe('12.00');
    expect(amountForPeople('3.100000')).toBe('3.10');
    expect(amountForPeople('7')).toBe('7.00');
  });
});
