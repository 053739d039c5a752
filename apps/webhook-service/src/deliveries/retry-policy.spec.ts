import { MAX_RETRY_AFTER_MS, decideAfterAttempt, jitteredDelayMs, parseRetryAfterMs } from './retry-policy';

const schedule = [5, 300, 1800];
const now = new Date('2025-06-01T12:00:00Z');

describe('retry policy', () => {
  it('succeeds on any 2xx', () => {
    for (const statusCode of [200, 201, 204, 299]) expect(decideAfterAttempt({ statusCode, attemptsMade: 1, schedule })).toEqual({ kind: 'succeeded' });
  });

  it('treats 410 as gone, even on the last attempt', () => {
    expect(decideAfterAttempt({ statusCode: 410, attemptsMade: 1, schedule })).toEqual({ kind: 'gone' });
    expect(decideAfterAttempt({ statusCode: 410, attemptsMade: 4, schedule })).toEqual({ kind: 'gone' });
  });

  it('retries 3xx, 4xx, 5xx and no response after the next scheduled delay', () => {
    for (const statusCode of [301, 302, 400, 404, 500, null]) {
      expect(decideAfterAttempt({ statusCode, attemptsMade: 1, schedule, random: () => 1 })).toEqual({ kind: 'retry', delayMs: 5000 });
    }
    expect(decideAfterAttempt({ statusCode: 500, attemptsMade: 2, schedule, random: () => 1 })).toEqual({ kind: 'retry', delayMs: 300_000 });
    expect(decideAfterAttempt({ statusCode: 500, attemptsMade: 3, schedule, random: () => 1 })).toEqual({ kind: 'retry', delayMs: 1_800_000 });
  });

  it('is dead once the schedule is used up (one attempt more than entries)', () => {
    expect(decideAfterAttempt({ statusCode: 500, attemptsMade: 4, schedule })).toEqual({ kind: 'dead' });
    expect(decideAfterAttempt({ statusCode: null, attemptsMade: 1, schedule: [] })).toEqual({ kind: 'dead' });
  });

  it('applies full jitter with a floor of max(1 s, delay/10), never above the delay', () => {
    expect(jitteredDelayMs(300_000, () => 0.5)).toBe(150_000);
    expect(jitteredDelayMs(300_000, () => 0)).toBe(30_000);
    expect(jitteredDelayMs(5000, () => 0)).toBe(1000);
    expect(jitteredDelayMs(5000, () => 0.999)).toBe(4995);
    expect(jitteredDelayMs(1000, () => 0)).toBe(1000);
    expect(jitteredDelayMs(500, () => 0)).toBe(500);
    for (let i = 0; i < 200; i++) {
      const d = jitteredDelayMs(1_800_000);
      expect(d).toBeGreaterThanOrEqual(180_000);
      expect(d).toBeLessThanOrEqual(1_800_000);
    }
  });

  it('waits at least as long as Retry-After asks on 429 and 503', () => {
    expect(decideAfterAttempt({ statusCode: 429, attemptsMade: 1, schedule, retryAfter: '120', random: () => 0.5 })).toEqual({ kind: 'retry', delayMs: 120_000 });
    expect(decideAfterAttempt({ statusCode: 503, attemptsMade: 1, schedule, retryAfter: 'Sun, 01 Jun 2025 12:10:00 GMT', now, random: () => 0.5 })).toEqual({
      kind: 'retry',
      delayMs: 600_000,
    });
    // A shorter Retry-After never shortens the schedule's own delay.
    expect(decideAfterAttempt({ statusCode: 429, attemptsMade: 2, schedule, retryAfter: '1', random: () => 1 })).toEqual({ kind: 'retry', delayMs: 300_000 });
    // Other statuses ignore it; absurd values are capped.
    expect(decideAfterAttempt({ statusCode: 500, attemptsMade: 1, schedule, retryAfter: '120', random: () => 1 })).toEqual({ kind: 'retry', delayMs: 5000 });
    expect(decideAfterAttempt({ statusCode: 429, attemptsMade: 1, schedule, retryAfter: '99999999', random: () => 1 })).toEqual({ kind: 'retry', delayMs: MAX_RETRY_AFTER_MS });
    // Retry-After does not extend the schedule: the last attempt is still the last.
    expect(decideAfterAttempt({ statusCode: 429, attemptsMade: 4, schedule, retryAfter: '10' })).toEqual({ kind: 'dead' });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('30', now)).toBe(30_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs('-5', now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});
