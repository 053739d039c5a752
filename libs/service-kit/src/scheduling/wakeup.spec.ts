import { Wakeup, sleepUntilDue } from './wakeup';

describe('Wakeup', () => {
  it('ends a sleep when woken', async () => {
    const wakeup = new Wakeup();
    const slept = wakeup.sleep(60_000).then(() => 'woken');
    wakeup.wake();
    await expect(slept).resolves.toBe('woken');
  });

  it('keeps a wake-up that came while awake, so the next sleep returns at once (once)', async () => {
    jest.useFakeTimers();
    try {
      const wakeup = new Wakeup();
      wakeup.wake();
      await expect(wakeup.sleep(60_000)).resolves.toBeUndefined();
      let second = false;
      void wakeup.sleep(60_000).then(() => (second = true));
      await Promise.resolve();
      expect(second).toBe(false);
      jest.advanceTimersByTime(60_000);
      await Promise.resolve();
      expect(second).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('sleepUntilDue', () => {
  it('sleeps until the next due row, within the floor and the safety sweep', () => {
    expect(sleepUntilDue(1_500.2, 25, 30_000)).toBe(1_501);
    expect(sleepUntilDue(-200, 25, 30_000)).toBe(25);
    expect(sleepUntilDue(3_600_000, 25, 30_000)).toBe(30_000);
    expect(sleepUntilDue(null, 25, 30_000)).toBe(30_000);
  });
});
