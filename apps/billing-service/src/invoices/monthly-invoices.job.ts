import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Wakeup } from '@parley/service-kit';
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
  private readonly wakeup = new Wakeup();
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly invoices: InvoicesService,
    private readonly config: BillingServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeup.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const issued = await this.invoices.closeEndedMonths();
        if (issued > 0) this.logger.log(`issued ${issued} monthly invoice(s)`);
      } catch (err) {
        this.logger.warn(`closing ended months failed (retried at the next run): ${String(err)}`);
      }
      await this.wakeup.sleep(this.config.BILLING_INVOICE_JOB_INTERVAL_MS);
    }
  }
}
