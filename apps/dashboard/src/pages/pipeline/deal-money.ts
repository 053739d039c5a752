/** A deal's value as people read it, in its currency ("€1,250.00", "NOK 9,990.00"); the exact decimal when Intl cannot. */
export function formatMoney(value: { amount: string; currency: string }): string {
  const amount = Number(value.amount);
  if (!Number.isFinite(amount)) return `${value.amount} ${value.currency}`;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: value.currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${value.amount} ${value.currency}`;
  }
}

/** A calendar date (`2026-03-31`, no zone) in the reader's words, without shifting it to another day by their zone. */
export function formatCalendarDate(date: string): string {
  const parsed = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
}
