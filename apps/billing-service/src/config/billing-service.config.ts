import { BaseConfig } from '@parley/service-kit';
import { IsInt, Matches, Max, Min } from 'class-validator';

const DECIMAL = /^\d{1,14}(\.\d{1,6})?$/;

export class BillingServiceConfig extends BaseConfig {
  override PORT = 3007;

  /** Currency of new wallets (ISO 4217); prices are kept per currency and a wallet pays only in its own. */
  @Matches(/^[A-Z]{3}$/, { message: 'BILLING_CURRENCY must be an ISO 4217 code such as USD' })
  BILLING_CURRENCY = 'USD';

  /** A new wallet's `low_balance_threshold` (decimal string): `wallet.low_balance` fires once per crossing below it. */
  @Matches(DECIMAL, { message: 'BILLING_LOW_BALANCE_THRESHOLD must be a decimal amount such as 5.00' })
  BILLING_LOW_BALANCE_THRESHOLD = '5.00';

  /**
   * Messages per calendar month (UTC) a tenant on the `free` plan sends without charge (CONTRACT.md §16: a paid send
   * is any send on `pro`/`enterprise`, or beyond this allowance). 0: every send is paid.
   */
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  BILLING_FREE_ALLOWANCE = 1000;

  /** Starts the Redis keys of the spendable-balance view the gateway checks sends against (the gateway's must match). */
  @Matches(/^[A-Za-z0-9:._-]*$/, { message: 'BILLING_VIEW_PREFIX must be letters, digits and : . _ -' })
  BILLING_VIEW_PREFIX = 'parley:billing:';
}
