import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, periodicLoop } from '@parley/service-kit';
import { PendingStatusesService } from './pending-statuses.service';

/** How often expired parked statuses are removed. */
const SWEEP_EVERY_MS = 60_000;

/** At start and every minute: removes parked statuses whose message never appeared (PENDING_STATUS_TTL_MS). */
@Injectable()
export class ParkedStatusExpiry extends BackgroundWorker {
  private readonly logger = new Logger(ParkedStatusExpiry.name);
  protected readonly loop = periodicLoop({ name: 'parked status expiry', everyMs: SWEEP_EVERY_MS, sweep: () => this.pending.expire(), logger: this.logger });

  constructor(private readonly pending: PendingStatusesService) {
    super();
  }
}
