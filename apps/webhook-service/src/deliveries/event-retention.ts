import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { DeliveriesStore } from './deliveries.store';

/** Events are kept this long for replay (CONTRACT.md §5). */
export const EVENT_RETENTION_DAYS = 7;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * At start and hourly: deletes events past the replay window (with their finished deliveries and attempts). What is
 * due is what the table says has aged out, so a purge missed while no instance ran is made by the next one.
 */
@Injectable()
export class EventRetention extends BackgroundWorker {
  private readonly logger = new Logger(EventRetention.name);
  protected readonly loop = new WorkerLoop({
    name: 'event retention',
    pass: async () => {
      const purged = await this.purge();
      if (purged > 0) this.logger.log(`purged ${purged} events older than ${EVENT_RETENTION_DAYS} days`);
      return null;
    },
    sweepMs: PURGE_INTERVAL_MS,
    retryPauseMs: 60_000,
    maxRetryPauseMs: PURGE_INTERVAL_MS,
    logger: this.logger,
  });

  constructor(private readonly store: DeliveriesStore) {
    super();
  }

  async purge(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.store.purgeEvents(EVENT_RETENTION_DAYS);
      total += deleted;
      if (deleted === 0) return total;
    }
  }
}
