/**
 * A decimal-string amount shown in its currency, in the reader's locale ("$12.50"). Only for display: amounts stay
 * strings everywhere else. Sub-cent amounts (a token's price) keep their digits.
 */
export function formatMoney(amount: string, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  const fraction = amount.split('.')[1]?.replace(/0+$/, '').length ?? 0;
  try {
    return value.toLocaleString(undefined, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: Math.min(Math.max(fraction, 2), 6) });
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * An amount to the cent, as a person reads a bill ("$50.00", never "50.000000 USD"): rounded half up from the exact
 * decimal string (no float arithmetic on the digits that decide the rounding).
 */
export function formatCents(amount: string, currency: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) return `${amount} ${currency}`;
  const [, sign, whole, fraction = ''] = match;
  let cents = BigInt(whole + fraction.padEnd(2, '0').slice(0, 2));
  if (Number(fraction[2] ?? '0') >= 5) cents += 1n;
  const rounded = `${sign}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
  return formatMoney(rounded, currency);
}

/** Whether a decimal string is zero ("0", "0.000000"). */
export const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount.trim());

/** The balance is below the wallet's low-balance threshold (compared as decimals, never floats' rounding of both). */
export function isLowBalance(wallet: { balance: string; low_balance_threshold: string }): boolean {
  return compareDecimals(wallet.balance, wallet.low_balance_threshold) < 0;
}

/** -1, 0 or 1 for two non-negative decimal strings. */
export function compareDecimals(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const left = BigInt(ai + af.padEnd(width, '0'));
  const right = BigInt(bi + bf.padEnd(width, '0'));
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether two decimal strings are the same amount ("12.5" and "12.500000"; signs allowed). */
export function sameAmount(a: string, b: string): boolean {
  const normal = (x: string) => {
    const negative = x.trim().startsWith('-');
    const [int, frac = ''] = x.trim().replace(/^[-+]/, '').split('.');
    const digits = `${int.replace(/^0+(?=\d)/, '')}.${frac.replace(/0+$/, '')}`.replace(/\.$/, '');
    return digits === '0' ? '0' : `${negative ? '-' : ''}${digits}`;
  };
  return normal(a) === normal(b);
}
