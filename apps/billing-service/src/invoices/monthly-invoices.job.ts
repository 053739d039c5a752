import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop } from '@parley/service-kit';
import { BillingServiceConfig } from '../config/billing-service.config';
import { InvoicesService } from './invoices.service';

/**
 * Closes ended months into invoices: at start and then every BILLING_INVOICE_JOB_INTERVAL_MS. Durable by being
 * idempotent: the invoices themselves record what is done, so a month the service was down for is closed at its next
 * start, and any number of instances may run it at once (the counter row serialises them per tenant).
 */
@Injectable()
export class MonthlyInvoicesJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MonthlyInvoicesJob.name);
  private readonly loop: WorkerLoop;

  constructor(
    private readonly invoices: InvoicesService,
    config: BillingServiceConfig,
  ) {
    this.loop = new WorkerLoop({
      name: 'monthly invoices',
      pass: async () => {
        const issued = await this.invoices.closeEndedMonths();
        if (issued > 0) this.logger.log(`issued ${issued} monthly invoice(s)`);
        return config.BILLING_INVOICE_JOB_INTERVAL_MS;
      },
      // a failed run is tried again at the next interval
      sweepMs: config.BILLING_INVOICE_JOB_INTERVAL_MS,
      retryPauseMs: config.BILLING_INVOICE_JOB_INTERVAL_MS,
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
