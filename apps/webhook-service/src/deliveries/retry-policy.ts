/** A jittered retry never comes sooner than this (nor than a tenth of its scheduled delay). */
export const MIN_RETRY_DELAY_MS = 1000;
/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export type AttemptDecision =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver says the endpoint no longer exists. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'dead' };

export interface AttemptFacts {
  /** null when no response came (refused, reset, timed out). */
  statusCode: number | null;
  /** Attempts made so far, this one included. */
  attemptsMade: number;
  /** Seconds to wait before each retry (WEBHOOK_RETRY_SCHEDULE); the first attempt is immediate. */
  schedule: number[];
  /** The response's Retry-After header, if any. */
  retryAfter?: string;
  now?: Date;
  random?: () => number;
}

/**
 * What follows an attempt (CONTRACT.md §5): 2xx succeeds; 410 disables the endpoint; anything else (3xx included)
 * waits for the schedule's next delay with full jitter, at least as long as a 429/503 Retry-After asks; once the
 * schedule is used up the delivery is dead.
 */
export function decideAfterAttempt({ statusCode, attemptsMade, schedule, retryAfter, now = new Date(), random = Math.random }: AttemptFacts): AttemptDecision {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'succeeded' };
  if (statusCode === 410) return { kind: 'gone' };
  if (attemptsMade > schedule.length) return { kind: 'dead' };
  let delayMs = jitteredDelayMs(schedule[attemptsMade - 1] * 1000, random);
  if (statusCode === 429 || statusCode === 503) {
    const asked = parseRetryAfterMs(retryAfter, now);
    if (asked !== null) delayMs = Math.max(delayMs, Math.min(asked, MAX_RETRY_AFTER_MS));
  }
  return { kind: 'retry', delayMs };
}

/**
 * Full jitter (a uniformly random wait up to the scheduled delay) spreads retries of a recovering receiver, with a
 * floor so a retry is never practically immediate: max(1 s, delay/10), and never beyond the delay itself.
 */
export function jitteredDelayMs(delayMs: number, random: () => number = Math.random): number {
  const floor = Math.min(delayMs, Math.max(MIN_RETRY_DELAY_MS, delayMs / 10));
  return Math.round(Math.max(floor, delayMs * random()));
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read "-5" as a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
