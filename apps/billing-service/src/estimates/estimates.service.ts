import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem, type BillingCategory, type CostEstimateRecord, type RpcRequest } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { PricesStore } from '../prices/prices.store';
import { MonthUsageService } from '../usage/month-usage.service';
import { WalletsService } from '../wallet/wallets.service';
import { EstimatesStore } from './estimates.store';

/** A campaign's size is bounded by its audience; this keeps the arithmetic well inside numeric(20, 6). */
const MAX_QUANTITY = 100_000_000;

/**
 * What a batch of sends would cost a tenant now (a campaign asks before it starts): priced as metering would price each
 * send (the template's category, `marketing` for one billing has not heard of; sms and email by channel), on the
 * tenant's plan, less what is left of the free allowance this month. Reads only: nothing is held.
 */
@Injectable()
export class EstimatesService {
  constructor(
    private readonly store: EstimatesStore,
    private readonly prices: PricesStore,
    private readonly wallets: WalletsService,
    private readonly monthUsage: MonthUsageService,
  ) {}

  async estimate(request: RpcRequest<'billing.estimate'>): Promise<CostEstimateRecord> {
    const { tenant_id: tenantId, channel, template, quantity } = request;
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', 'The quantity is not valid.', [{ field: 'quantity', message: `quantity must be an integer from 0 to ${MAX_QUANTITY}` }]));
    }
    const wallet = await this.wallets.get(tenantId);
    const category = await this.categoryOf(tenantId, channel, template);
    const billable = Math.max(0, quantity - (await this.monthUsage.freeLeft(tenantId, wallet.plan)));
    const price = (await this.prices.priceOf(wallet.plan, category)) ?? { unit_price: '0.000000', currency: wallet.currency };
    const { amount, covered } = await this.store.cost(price.unit_price, billable, wallet.balance);
    return {
      amount,
      currency: price.currency,
      category,
      unit_price: price.unit_price,
      quantity,
      billable,
      balance: wallet.balance,
      // a price in another currency than the wallet's is never charged (metering leaves such sends uncharged)
      payable: price.currency !== wallet.currency || covered,
    };
  }

  private async categoryOf(tenantId: string, channel: string, template: { name: string; language: string } | null): Promise<BillingCategory> {
    if (channel === 'sms' || channel === 'email') return channel;
    if (!template) return 'service';
    return (await this.store.templateCategory(tenantId, template)) ?? 'marketing';
  }
}
