import { pastGiveUp, retryDelayMs } from './retry-schedule';

describe('notification retry schedule', () => {
  const schedule = [250, 1_000, 4_000, 15_000, 60_000, 300_000];

  it('pauses longer after each failed attempt, then repeats the last pause', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(schedule, a))).toEqual(schedule);
    expect(retryDelayMs(schedule, 7)).toBe(300_000);
    expect(retryDelayMs(schedule, 500)).toBe(300_000);
    expect(retryDelayMs([100], 3)).toBe(100);
  });

  it('gives up only once the horizon has passed since the notification was recorded', () => {
    const recorded = new Date('2026-11-22T08:00:00Z');
    const day = 86_400_000;
    expect(pastGiveUp(recorded, day, recorded.getTime() + day - 1)).toBe(false);
    expect(pastGiveUp(recorded, day, recorded.getTime() + day)).toBe(true);
  });
});
