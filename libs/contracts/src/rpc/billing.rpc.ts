import type { AdjustWalletBody, CreateTopUpBody, SetPricesBody } from '../dto/billing.dto';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** What usage is metered and priced by (CONTRACT.md §16). */
export const BILLING_CATEGORIES = ['service', 'marketing', 'utility', 'authentication', 'sms', 'email', 'voice_minute', 'llm_token'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

export const BILLING_PLANS = ['free', 'pro', 'enterprise'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

/** One line of the price book: the price of one unit (a message, a minute) of a category on a plan. */
export interface PriceRecord {
  plan: BillingPlan;
  category: BillingCategory;
  /**
   * Decimal string, e.g. "0.050000".
   * @apiFormat money
   */
  unit_price: string;
  /** @apiFormat currency */
  currency: string;
  updated_at: string;
}

/** `GET /api/v1/billing/wallet`. Amounts are decimal strings in `currency`. */
export interface WalletRecord {
  /**
   * What the tenant can spend: the sum of its wallet's ledger entries (money held for sends in flight is not in it).
   * @apiFormat money
   */
  balance: string;
  /** @apiFormat currency */
  currency: string;
  /** @apiFormat money */
  low_balance_threshold: string;
  /**
   * Reserved for accepted sends until they are sent (then charged) or fail (then released).
   * @apiFormat money
   */
  held: string;
  plan: BillingPlan;
}

/** `GET /api/v1/billing/wallet`: billing-service's wallet, and whether the gateway refuses the sends it cannot cover. */
export interface WalletView extends WalletRecord {
  /** A paid send the balance cannot cover is refused with 402 (`BILLING_ENFORCED`, on unless an operator turned it off). */
  enforced: boolean;
}

export const LEDGER_TRANSACTION_TYPES = ['top_up', 'hold', 'settlement', 'release', 'refund', 'adjustment'] as const;
export type LedgerTransactionType = (typeof LEDGER_TRANSACTION_TYPES)[number];

/** One ledger transaction (`GET /api/v1/billing/transactions`), newest first. */
export interface LedgerTransactionRecord {
  /** @idPrefix txn */
  id: string;
  type: LedgerTransactionType;
  /**
   * The transaction's size (positive).
   * @apiFormat money
   */
  amount: string;
  /**
   * Its effect on the balance (signed; "0.000000" for a settlement, which moves held money to revenue).
   * @apiFormat signed-money
   */
  balance_change: string;
  /** @apiFormat money */
  balance_after: string;
  /** @apiFormat currency */
  currency: string;
  /** What caused it: the message id of a charge, the top-up, or the operator's reference of an adjustment. */
  cause_id: string;
  description: string | null;
  created_at: string;
}

/**
 * What `quantity` sends of a template (or of an sms/email channel) would cost the tenant now: the unit price of its
 * category on the tenant's plan, the free allowance left this month taken off, and whether the wallet covers it.
 */
export interface CostEstimateRecord {
  /**
   * What the billable sends cost: `billable` × `unit_price`.
   * @apiFormat money
   */
  amount: string;
  /** @apiFormat currency */
  currency: string;
  category: BillingCategory;
  /** @apiFormat money */
  unit_price: string;
  /** @apiType integer */
  quantity: number;
  /**
   * How many of them are paid (the rest fit in what is left of the free allowance).
   * @apiType integer
   */
  billable: number;
  /** @apiFormat money */
  balance: string;
  /** The balance covers the amount (in the wallet's currency; a price in another currency is never charged). */
  payable: boolean;
}

/** A top-up (`POST /api/v1/billing/top-ups`): a Checkout Session with the payment provider, credited once it is paid. */
export interface TopUpRecord {
  /** @idPrefix top */
  id: string;
  /**
   * Where the customer pays (the provider's hosted checkout page).
   * @apiFormat uri
   */
  checkout_url: string;
  /** @apiFormat money */
  amount: string;
  /** @apiFormat currency */
  currency: string;
  status: 'pending' | 'paid';
  created_at: string;
}

/** One line of an invoice: what a category of usage cost over the invoice's period (settled charges less refunds). */
export interface InvoiceLineRecord {
  category: string;
  /** @apiType integer */
  quantity: number;
  /** @apiFormat signed-money */
  amount: string;
}

/** A tenant's invoice (`inv_…`) for one period: a calendar month once it has ended, or the month so far on demand. */
export interface InvoiceRecord {
  /** @idPrefix inv */
  id: string;
  /**
   * Gapless per tenant, in the order the invoices were issued (1, 2, 3, …).
   * @apiType integer
   */
  number: number;
  /** @apiFormat date-time */
  period_start: string;
  /** @apiFormat date-time */
  period_end: string;
  /** @apiFormat currency */
  currency: string;
  lines: InvoiceLineRecord[];
  /** @apiFormat signed-money */
  total: string;
  /**
   * Top-ups paid in the period (money received, not billed).
   * @apiFormat money
   */
  payments: string;
  issued_at: string;
}

/** One day's metered usage of a category on a channel (`GET /api/v1/billing/usage`): messages, minutes or LLM tokens. */
export interface UsageDayRecord {
  /**
   * UTC day, YYYY-MM-DD.
   * @apiFormat date
   */
  day: string;
  channel: string;
  category: BillingCategory;
  quantity: number;
}

/** One channel and category's usage this month (`GET /api/v1/billing/usage/month`). */
export interface MonthUsageLineRecord {
  channel: string;
  category: BillingCategory;
  quantity: number;
}

/**
 * The tenant's usage this calendar month (UTC) against its free allowance (`GET /api/v1/billing/usage/month`): what
 * the dashboard's Usage page shows. Messages of every channel count towards the allowance; voice minutes and LLM
 * tokens do not.
 */
export interface MonthUsageRecord {
  /**
   * YYYY-MM (UTC).
   * @apiSchema {pattern: '^\\d{4}-\\d{2}$'}
   */
  month: string;
  /** @apiFormat date-time */
  period_start: string;
  /**
   * The start of the next month: the allowance starts again then.
   * @apiFormat date-time
   */
  period_end: string;
  plan: BillingPlan;
  /**
   * Free messages a month on this plan; null on a plan without one (every message is paid).
   * @apiType integer
   */
  free_allowance: number | null;
  /**
   * Messages sent this month (every channel and category but voice minutes and LLM tokens).
   * @apiType integer
   */
  messages: number;
  /**
   * What is left of the free allowance (0 once it is used up); null without one.
   * @apiType integer
   */
  free_left: number | null;
  data: MonthUsageLineRecord[];
}

/** The answer to the payment provider's webhook: it was processed (a paid top-up credited once). */
export interface PaymentWebhookReceipt {
  received: true;
}

/** A top-up's receipt, once it is paid (`GET /api/v1/billing/top-ups/{id}/receipt.pdf`). */
export interface TopUpReceiptPdf {
  filename: string;
  pdf_base64: string;
}

export interface BillingRpc {
  'billing.prices': { request: TenantScoped; response: { data: PriceRecord[] } };
  'billing.set-prices': { request: { body: SetPricesBody }; response: { data: PriceRecord[] } };
  'billing.wallet': { request: TenantScoped; response: WalletRecord };
  /** Usage per UTC day, channel and category over the last `days` days (today included), oldest first. */
  'billing.usage': { request: TenantScoped & { days: number }; response: { data: UsageDayRecord[] } };
  'billing.transactions': { request: TenantScoped & ListQuery; response: Page<LedgerTransactionRecord> };
  'billing.adjust': { request: TenantScoped & { body: AdjustWalletBody }; response: LedgerTransactionRecord };
  'billing.estimate': {
    request: TenantScoped & { channel: string; template: { name: string; language: string } | null; quantity: number };
    response: CostEstimateRecord;
  };
  'billing.set-plan': { request: TenantScoped & { plan: BillingPlan }; response: { tenant_id: string; plan: BillingPlan } };
  'billing.create-top-up': { request: TenantScoped & { body: CreateTopUpBody }; response: TopUpRecord };
  /** The payment provider's webhook, exactly as received: billing-service checks `Stripe-Signature` over these bytes. */
  'billing.payment-webhook': { request: { payload: string; signature: string | null }; response: PaymentWebhookReceipt };
  'billing.invoices': { request: TenantScoped & ListQuery; response: Page<InvoiceRecord> };
  /** Issues the invoice of the current month so far (the period since the tenant's last invoice). */
  'billing.issue-invoice': { request: TenantScoped; response: InvoiceRecord };
  'billing.invoice': { request: TenantScoped & { invoice_id: string }; response: InvoiceRecord };
  /** The invoice rendered as PDF, base64-encoded. */
  'billing.invoice-pdf': { request: TenantScoped & { invoice_id: string }; response: { filename: string; pdf_base64: string } };
  /** This month's usage per channel and category against the free allowance. */
  'billing.month-usage': { request: TenantScoped; response: MonthUsageRecord };
  /** A paid top-up's receipt rendered as PDF, base64-encoded; 404 for a top-up not paid (or not the tenant's). */
  'billing.top-up-receipt-pdf': { request: TenantScoped & { top_up_id: string }; response: TopUpReceiptPdf };
}
