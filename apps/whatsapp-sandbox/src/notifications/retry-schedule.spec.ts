import { pastGiveUp, retryDelayMs } from './retry-schedule';

describe('notification retry schedule', () => {
  const schedule = [250, 1_000, 4_000, 15_000, 60_000, 300_000];

  it('pauses longer after each failed attempt, then repeats the last pause', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(schedule, a))).toEqual(schedule);
    expect(retryDelayMs(schedule, 7)).toBe(300_000);
    expect(retryDelayMs(schedule, 500)).toBe(300_000);
    expect(retryDelayMs([100], 3)).toBe(100);
  });

  it('gives up only once the notification’s horizon has come', () => {
    const horizon = new Date('2026-11-29T08:00:00Z');
    expect(pastGiveUp(horizon, horizon.getTime() - 1)).toBe(false);
    expect(pastGiveUp(horizon, horizon.getTime())).toBe(true);
  });
});
