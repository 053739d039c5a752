import { WorkerLoop } from '@parley/service-kit';

/**
 * The loop of the document workers that take one leased row at a time (processing, refreshing, importing): claim the
 * next; none claimable, sleep until the next one falls due (at least a second, so a row whose lease ran out but that
 * another claim holds locked does not spin the loop); one claimed, work it and claim again at once.
 */
export function oneClaimAtATime<T>(options: {
  name: string;
  claim(): Promise<T | null>;
  /** How long until the next row falls due (a lease runs out, a refresh is due); null: none scheduled. */
  nextDueInMs(): Promise<number | null>;
  work(claimed: T): Promise<void>;
  sweepMs: number;
  maxRetryPauseMs?: number;
  logger: { warn(message: string): void };
}): WorkerLoop {
  return new WorkerLoop({
    name: options.name,
    pass: async () => {
      const claimed = await options.claim();
      if (!claimed) return options.nextDueInMs();
      await options.work(claimed);
      return 'more';
    },
    sweepMs: options.sweepMs,
    minSleepMs: 1_000,
    retryPauseMs: 5_000,
    maxRetryPauseMs: options.maxRetryPauseMs,
    logger: options.logger,
  });
}
