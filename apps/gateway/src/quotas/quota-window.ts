/** The daily quota window: a UTC calendar day (CONTRACT.md §8). */
export const DAY_SECONDS = 86_400;

/** The UTC day `now` falls in (`2026-11-22`), which names its counter. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The next UTC midnight after `now`, when the day's counters reset. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Whole seconds from `now` to the reset, at least 1 (a `Retry-After` of 0 would invite an immediate retry). */
export function secondsUntilReset(now: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
}
