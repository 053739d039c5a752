/** The first instant of `at`'s calendar month (UTC). */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

export interface Period {
  start: Date;
  end: Date;
}

/**
 * The monthly periods still to invoice, oldest first: from `from` (the end of the tenant's last invoice, or its first
 * ledger transaction) to the start of the month `now` is in. A period starts mid-month only when an on-demand invoice
 * already covered that month's beginning.
 */
export function closedMonthsSince(from: Date, now: Date): Period[] {
  const periods: Period[] = [];
  const current = monthStart(now);
  for (let start = from; start < current; ) {
    const end = nextMonthStart(start);
    periods.push({ start, end });
    start = end;
  }
  return periods;
}
