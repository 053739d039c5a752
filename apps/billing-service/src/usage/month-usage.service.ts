import { Injectable } from '@nestjs/common';
import type { MonthUsageRecord } from '@parley/contracts';
import { BillingServiceConfig } from '../config/billing-service.config';
import { WalletsService } from '../wallet/wallets.service';
import { MonthUsageStore, messagesIn } from './month-usage.store';

/** The start of the UTC calendar month `offset` months after the one `now` is in. */
const monthStart = (now: Date, offset = 0) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));

/**
 * This month's usage against the free allowance (`GET /api/v1/billing/usage/month`): what the Usage page shows, and
 * what a campaign's estimate takes off before pricing. Only `free` has an allowance; every send on another plan is paid.
 */
@Injectable()
export class MonthUsageService {
  constructor(
    private readonly config: BillingServiceConfig,
    private readonly store: MonthUsageStore,
    private readonly wallets: WalletsService,
  ) {}

  async month(tenantId: string, now = new Date()): Promise<MonthUsageRecord> {
    const [{ plan }, lines] = await Promise.all([this.wallets.get(tenantId), this.store.lines(tenantId)]);
    // From the lines themselves, not a second read: a send metered between two reads made the page disagree with itself.
    const messages = messagesIn(lines);
    const allowance = plan === 'free' ? this.config.BILLING_FREE_ALLOWANCE : null;
    return {
      month: monthStart(now).toISOString().slice(0, 7),
      period_start: monthStart(now).toISOString(),
      period_end: monthStart(now, 1).toISOString(),
      plan,
      free_allowance: allowance,
      messages,
      free_left: allowance === null ? null : Math.max(0, allowance - messages),
      data: lines,
    };
  }

  /** Free messages left this month: none on a plan without an allowance. */
  async freeLeft(tenantId: string, plan: string): Promise<number> {
    if (plan !== 'free') return 0;
    return Math.max(0, this.config.BILLING_FREE_ALLOWANCE - messagesIn(await this.store.lines(tenantId)));
  }
}
