/**
 * A worker's sleep between passes over a durable queue: until the next row comes due, or until woken (a write, a
 * NOTIFY). A wake-up that arrives while the worker is busy is kept, so its next sleep returns at once: the pass may
 * have looked before the new row was committed.
 */
export class Wakeup {
  private woken = false;
  private release: (() => void) | null = null;

  wake(): void {
    if (this.release) this.release();
    else this.woken = true;
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.release = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.release = done;
    });
  }
}

/**
 * How long an idle worker sleeps: until its next row is due (`dueInMs`, null when none is scheduled), at least
 * `minMs` (so a row due now but not claimable does not spin the loop), at most `sweepMs`, the safety sweep that
 * finds what no wake-up announced (a notification lost with its connection, a crashed writer).
 */
export function sleepUntilDue(dueInMs: number | null, minMs: number, sweepMs: number): number {
  if (dueInMs === null || !Number.isFinite(dueInMs)) return sweepMs;
  return Math.min(sweepMs, Math.max(minMs, Math.ceil(dueInMs)));
}
