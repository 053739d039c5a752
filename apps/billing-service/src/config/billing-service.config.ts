import { BaseConfig, Secret } from '@parley/service-kit';
import { IsInt, IsNotEmpty, Matches, Max, Min } from 'class-validator';

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

  /**
   * The payment provider's API (Stripe's wire format; no path). Development: the local stand-in in the WhatsApp sandbox;
   * production: https://api.stripe.com.
   */
  @Matches(/^https?:\/\/[^\s/]+\/?$/, { message: 'STRIPE_API_BASE must be an http(s) URL without a path, e.g. https://api.stripe.com' })
  STRIPE_API_BASE = 'http://127.0.0.1:3100';

  /** The secret API key Checkout Sessions are created with (`Authorization: Bearer`). */
  @Secret()
  @IsNotEmpty()
  STRIPE_SECRET_KEY = 'sk_test_parley_sandbox';

  /** The webhook endpoint's signing secret: `Stripe-Signature` is checked with it. */
  @Secret()
  @IsNotEmpty()
  STRIPE_WEBHOOK_SECRET = 'whsec_parley_sandbox';

  /** Where the customer returns after paying (the dashboard's Billing page, served by the gateway). */
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'GATEWAY_URL must be an http(s) URL' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  /** How often the monthly invoice job looks for months to close (it also runs at start). */
  @IsInt()
  @Min(1000)
  BILLING_INVOICE_JOB_INTERVAL_MS = 3_600_000;
}
