/**
 * An amount of money as a person reads it (a refusal's detail, a receipt, an invoice): the ledger's six decimals cut to
 * cents, with finer digits only where the amount has them ("0.150000" → "0.15", "0.004500" → "0.0045", "12.000000" → "12.00").
 */
export function amountText(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}
