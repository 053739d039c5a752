import { amountText } from './amount-text';

describe('amountText', () => {
  it('shows cents, and finer digits only where the amount has them', () => {
    expect(amountText('0.150000')).toBe('0.15');
    expect(amountText('0.004500')).toBe('0.0045');
    expect(amountText('12.000000')).toBe('12.00');
    expect(amountText('3.100000')).toBe('3.10');
    expect(amountText('7')).toBe('7.00');
  });
});
