import { Wakeup, sleepUntilDue } from './wakeup';

/** What one pass over a durable queue found: more to do at once, or how long until its next row falls due (null: none scheduled). */
export type PassOutcome = 'more' | number | null;

export interface WorkerLoopOptions {
  /** Names the worker in its warnings. */
  name: string;
  /** One pass: claim and work what is due (a row, a batch), and say what comes next. */
  pass(): Promise<PassOutcome>;
  /** The longest sleep: the safety sweep that finds what no wake-up announced (another instance's rows, a lease that ran out). */
  sweepMs: number;
  /** The shortest sleep, so a row due now but not claimable (locked elsewhere) does not spin the loop. Default 25 ms. */
  minSleepMs?: number;
  /** The pause after a pass that failed (the database away, a bug) before the next. Default 1 s. */
  retryPauseMs?: number;
  /** Set to back off: the pause doubles with each further failure in a row, up to this. Default retryPauseMs (no growth). */
  maxRetryPauseMs?: number;
  logger: { warn(message: string): void };
}

/**
 * The loop every background worker of a durable queue runs (issue 34: one toolkit instead of one loop per worker):
 * passes back to back while there is more, otherwise asleep until the next row falls due, the sweep, or a wake-up (a
 * write in this process, kept if it comes mid-pass); a failed pass is logged and retried after a pause (growing, if
 * asked). The queue and its leases live in PostgreSQL, so a crash loses nothing: the next pass, here or elsewhere,
 * finds what was left.
 */
export class WorkerLoop {
  private readonly wakeup = new Wakeup();
  private stopped = false;
  private running?: Promise<void>;
  /** The wake-up wakeIn() set, and when it fires (Infinity: none). */
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;

  constructor(private readonly options: WorkerLoopOptions) {}

  /** Starts passing (application bootstrap). */
  start(): void {
    this.running ??= this.run();
  }

  /** Something was queued in this process: pass now rather than at the next due time. */
  wake(): void {
    this.wakeup.wake();
  }

  /**
   * Something falls due in `ms` that the loop's own schedule does not know of (a publish that failed, retried then, not
   * at once): a pass then, unless one comes sooner. The earliest of several stands.
   */
  wakeIn(ms: number): void {
    const at = Date.now() + ms;
    if (this.stopped || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      this.wakeup.wake();
    }, ms);
    this.timer.unref();
  }

  /** True once stop() was called: a long pass checks it between steps and leaves the rest to the next owner. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Stops after the pass under way (application shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wakeup.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    const { pass, sweepMs, minSleepMs = 25, retryPauseMs = 1_000, maxRetryPauseMs = retryPauseMs, logger, name } = this.options;
    let pauseMs = retryPauseMs;
    while (!this.stopped) {
      let next: PassOutcome;
      try {
        next = await pass();
        pauseMs = retryPauseMs;
      } catch (err) {
        if (this.stopped) return;
        logger.warn(`${name}: a pass failed, retrying in ${pauseMs} ms: ${String(err)}`);
        await this.wakeup.sleep(pauseMs);
        pauseMs = Math.min(maxRetryPauseMs, pauseMs * 2);
        continue;
      }
      if (next !== 'more' && !this.stopped) await this.wakeup.sleep(sleepUntilDue(next, minSleepMs, sweepMs));
    }
  }
}

/**
 * A Nest provider that runs a WorkerLoop for the application's life: started at bootstrap, stopped (after the pass
 * under way) at shutdown, woken by whoever queues work in this process.
 */
export abstract class BackgroundWorker {
  protected abstract readonly loop: WorkerLoop;

  /** Work was queued in this process: pass now. */
  wake(): void {
    this.loop.wake();
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}

/**
 * The loop of work that falls due by the clock rather than by a queue (retention, expiry): `sweep` at start and every
 * `everyMs`, never two at once; a failed sweep is tried again after a pause growing from a twelfth of the interval (at
 * most a minute) to the interval itself.
 */
export function periodicLoop(options: { name: string; everyMs: number; sweep(): Promise<unknown>; logger: WorkerLoopOptions['logger'] }): WorkerLoop {
  return new WorkerLoop({
    name: options.name,
    pass: async () => {
      await options.sweep();
      return null;
    },
    sweepMs: options.everyMs,
    retryPauseMs: Math.min(60_000, options.everyMs / 12),
    maxRetryPauseMs: options.everyMs,
    logger: options.logger,
  });
}
