import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, periodicLoop } from '@parley/service-kit';
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
  protected readonly loop = periodicLoop({ name: 'event retention', everyMs: PURGE_INTERVAL_MS, sweep: () => this.purgeAndTell(), logger: this.logger });

  constructor(private readonly store: DeliveriesStore) {
    super();
  }

  private async purgeAndTell(): Promise<void> {
    const purged = await this.purge();
    if (purged > 0) this.logger.log(`purged ${purged} events older than ${EVENT_RETENTION_DAYS} days`);
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
