import { WorkerLoop, periodicLoop, type PassOutcome } from './worker-loop';

/** A loop whose passes answer from `outcomes` in turn (then null), recording when each began. */
function loopOf(outcomes: (PassOutcome | Error)[], options: { sweepMs?: number; retryPauseMs?: number; maxRetryPauseMs?: number } = {}) {
  const began: number[] = [];
  const warnings: string[] = [];
  const start = Date.now();
  const loop = new WorkerLoop({
    name: 'test worker',
    pass: async () => {
      began.push(Date.now() - start);
      const next = outcomes.shift() ?? null;
      if (next instanceof Error) throw next;
      return next;
    },
    sweepMs: options.sweepMs ?? 60_000,
    minSleepMs: 1,
    retryPauseMs: options.retryPauseMs ?? 60_000,
    maxRetryPauseMs: options.maxRetryPauseMs,
    logger: { warn: (m) => warnings.push(m) },
  });
  return { loop, began, warnings };
}

/** Waits for the loop to get somewhere (polled every millisecond, 2 s at most). */
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 2_000 && !condition(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!condition()) throw new Error('the loop never got there');
};

describe('WorkerLoop', () => {
  it('passes back to back while there is more, then sleeps until woken', async () => {
    const { loop, began } = loopOf(['more', 'more', null]);
    loop.start();
    await until(() => began.length === 3);
    loop.wake();
    await until(() => began.length === 4);
    await loop.stop();
    expect(began).toHaveLength(4);
  });

  it('sleeps until the next row is due', async () => {
    const { loop, began } = loopOf([30, null]);
    loop.start();
    await until(() => began.length === 2);
    await loop.stop();
    expect(began[1] - began[0]).toBeGreaterThanOrEqual(29);
  });

  it('keeps a wake-up that comes mid-pass, so the row written meanwhile is not left to the sweep', async () => {
    let release!: () => void;
    const began: number[] = [];
    const loop = new WorkerLoop({
      name: 'test worker',
      pass: async () => {
        began.push(began.length);
        if (began.length === 1) await new Promise<void>((r) => (release = r));
        return null;
      },
      sweepMs: 60_000,
      logger: { warn: () => undefined },
    });
    loop.start();
    await until(() => began.length === 1);
    loop.wake();
    release();
    await until(() => began.length === 2);
    await loop.stop();
  });

  it('logs a failed pass with its name and tries again after the pause', async () => {
    const { loop, began, warnings } = loopOf([new Error('database away'), null], { retryPauseMs: 10 });
    loop.start();
    await until(() => began.length === 2);
    await loop.stop();
    expect(warnings).toEqual(['test worker: a pass failed, retrying in 10 ms: Error: database away']);
  });

  it('backs off: the pause doubles with each failure in a row up to its bound, and starts over after a pass that worked', async () => {
    const failure = new Error('database away');
    const { loop, began, warnings } = loopOf([failure, failure, failure, failure, 'more', failure, null], { retryPauseMs: 5, maxRetryPauseMs: 15 });
    loop.start();
    await until(() => began.length === 7);
    await loop.stop();
    expect(warnings.map((w) => /retrying in (\d+) ms/.exec(w)?.[1])).toEqual(['5', '10', '15', '15', '5']);
  });

  it('stops after the pass under way, and says so to a long pass', async () => {
    let seen = false;
    let release!: () => void;
    const loop = new WorkerLoop({
      name: 'test worker',
      pass: async () => {
        await new Promise<void>((r) => (release = r));
        seen = loop.stopping;
        return 'more';
      },
      sweepMs: 60_000,
      logger: { warn: () => undefined },
    });
    loop.start();
    await until(() => release !== undefined);
    const stopped = loop.stop();
    release();
    await stopped;
    expect(seen).toBe(true);
  });
});

describe('periodicLoop', () => {
  it('sweeps at start and then every interval, one sweep at a time, and retries a failed one sooner than the interval', async () => {
    const began: number[] = [];
    let running = 0;
    let overlapped = false;
    const warnings: string[] = [];
    const start = Date.now();
    const loop = periodicLoop({
      name: 'test sweep',
      everyMs: 120,
      sweep: async () => {
        began.push(Date.now() - start);
        overlapped ||= running > 0;
        running++;
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (began.length === 2) throw new Error('database away');
      },
      logger: { warn: (m) => warnings.push(m) },
    });
    loop.start();
    await until(() => began.length === 4);
    await loop.stop();
    expect(began[0]).toBeLessThan(100); // at start
    expect(began[1] - began[0]).toBeGreaterThanOrEqual(110); // then after the interval
    expect(began[2] - began[1]).toBeLessThan(100); // the failed one again after a twelfth of it (10 ms), not 120
    expect(began[3] - began[2]).toBeGreaterThanOrEqual(110);
    expect(overlapped).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('test sweep: a pass failed')]);
  });
});

describe('WorkerLoop.wakeIn', () => {
  it('passes once the time it names has come, not before, and the earliest of several stands', async () => {
    const { loop, began } = loopOf([null]); // asleep until its 60 s sweep after the first pass
    loop.start();
    await until(() => began.length === 1);
    const asked = Date.now();
    loop.wakeIn(400);
    loop.wakeIn(80);
    loop.wakeIn(300); // later than the one set: ignored
    await until(() => began.length === 2);
    const waited = Date.now() - asked;
    expect(waited).toBeGreaterThanOrEqual(75);
    expect(waited).toBeLessThan(300);
    await loop.stop();
    expect(began).toHaveLength(2);
  });
});
