import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DeliveriesStore } from './deliveries.store';

/** Events are kept this long for replay (CONTRACT.md §5). */
export const EVENT_RETENTION_DAYS = 7;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly: deletes events past the replay window (with their finished deliveries and attempts). */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRetention.name);
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: DeliveriesStore) {}

  async purge(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.store.purgeEvents(EVENT_RETENTION_DAYS);
      total += deleted;
      if (deleted === 0) return total;
    }
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purge().then(
        (n) => n > 0 && this.logger.log(`purged ${n} events older than ${EVENT_RETENTION_DAYS} days`),
        (err: unknown) => this.logger.warn(`event purge failed: ${String(err)}`),
      );
    }, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
