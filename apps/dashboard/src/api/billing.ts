import type { ParleyClient, components } from '@parley/api-client';
import { ApiError, unwrap } from './http';

// Billing (CONTRACT.md §16, §9): wallet, ledger, usage, prices, estimates, top-ups, receipts and invoices. The routes
// written before the generated client had them still go through its untyped form (their bodies are those of
// libs/contracts' billing records); the month's usage, prices, estimates and LLM settings are typed by it.
// Amounts are decimal strings in their currency.

export interface WalletRecord {
  balance: string;
  currency: string;
  low_balance_threshold: string;
  held: string;
  plan: string;
  /** A paid send the balance cannot cover is refused (BILLING_ENFORCED; absent from an older gateway: assume so). */
  enforced?: boolean;
}

/** One line of the price book (`GET /api/v1/billing/prices`). */
export type PriceRecord = components['schemas']['Price'];
/** This month's usage against the free allowance (`GET /api/v1/billing/usage/month`). */
export type MonthUsageRecord = components['schemas']['MonthUsage'];
/** What a number of sends would cost now (`GET /api/v1/billing/estimate`). */
export type CostEstimateRecord = components['schemas']['CostEstimate'];

export interface LedgerTransactionRecord {
  id: string;
  type: 'top_up' | 'hold' | 'settlement' | 'release' | 'refund' | 'adjustment';
  amount: string;
  balance_change: string;
  balance_after: string;
  currency: string;
  cause_id: string;
  description: string | null;
  created_at: string;
}

export interface UsageDayRecord {
  day: string;
  channel: string;
  category: string;
  quantity: number;
}

export interface TopUpRecord {
  id: string;
  checkout_url: string;
  amount: string;
  currency: string;
  status: 'pending' | 'paid';
  created_at: string;
}

export interface InvoiceRecord {
  id: string;
  number: number;
  period_start: string;
  period_end: string;
  currency: string;
  lines: { category: string; quantity: number; amount: string }[];
  total: string;
  payments: string;
  issued_at: string;
}

/** The tenant's own LLM (CONTRACT.md §16): the key is write-only, its last four characters come back. */
export type LlmSettings = components['schemas']['LlmSettings'];
export interface LlmSettingsBody {
  base_url: string;
  api_key: string;
  model: string;
  monthly_budget: string;
}

export interface BillingPage<T> {
  data: T[];
  next_cursor: string | null;
}

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;
interface UntypedClient {
  GET<T>(path: string, init?: { params?: { query?: Record<string, unknown> }; parseAs?: 'blob' }): Answer<T>;
  POST<T>(path: string, init: { body: unknown }): Answer<T>;
}

export function createBillingApi(api: ParleyClient) {
  const raw = api as unknown as UntypedClient;
  return {
    wallet: () => unwrap(raw.GET<WalletRecord>('/api/v1/billing/wallet')),
    transactions: (cursor: string | null) =>
      unwrap(raw.GET<BillingPage<LedgerTransactionRecord>>('/api/v1/billing/transactions', { params: { query: { limit: 20, ...(cursor ? { cursor } : {}) } } })),
    usageByDay: (days: number) => unwrap(raw.GET<{ data: UsageDayRecord[] }>('/api/v1/billing/usage', { params: { query: { days } } })),
    monthUsage: () => unwrap(api.GET('/api/v1/billing/usage/month')),
    prices: () => unwrap(api.GET('/api/v1/billing/prices')),
    /** What `quantity` sends of a template would cost now (the free allowance left taken off first). */
    estimate: (quantity: number, template: { name: string; language: string }) =>
      unwrap(api.GET('/api/v1/billing/estimate', { params: { query: { quantity: String(quantity), template_name: template.name, template_language: template.language } } })),
    createTopUp: (amount: string) => unwrap(raw.POST<TopUpRecord>('/api/v1/billing/top-ups', { body: { amount } })),
    /** The tenant's invoices, or null where the gateway has no invoices route (404). */
    invoices: async (): Promise<BillingPage<InvoiceRecord> | null> => {
      try {
        return await unwrap(raw.GET<BillingPage<InvoiceRecord>>('/api/v1/billing/invoices', { params: { query: { limit: 100 } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    /** The tenant's LLM settings, or null while it uses the platform's LLM. */
    llmSettings: async (): Promise<LlmSettings | null> => {
      // `{source: "platform"}` while it has none of its own: an answer, not an error (no 404 in the console)
      const { source, ...settings } = await unwrap(api.GET('/api/v1/settings/llm'));
      // with `source: "tenant"` every field of the settings is there (the schema cannot say so per source)
      return source === 'tenant' ? (settings as LlmSettings) : null;
    },
    putLlmSettings: (body: LlmSettingsBody) => unwrap(api.PUT('/api/v1/settings/llm', { body })),
    deleteLlmSettings: () => unwrap(api.DELETE('/api/v1/settings/llm')),
    /** An invoice's PDF, fetched with the session's credential (a bearer token cannot ride on a plain link). */
    invoicePdf: (id: string) => unwrap(raw.GET<Blob>(`/api/v1/billing/invoices/${encodeURIComponent(id)}.pdf`, { parseAs: 'blob' })),
    /** Invoices the month so far (the period since the last invoice), numbered like the monthly ones. */
    issueInvoice: () => unwrap(raw.POST<InvoiceRecord>('/api/v1/billing/invoices', { body: undefined })),
    /** A paid top-up's receipt (its id is the `cause_id` of its `top_up` transaction). */
    receiptPdf: (topUpId: string) => unwrap(raw.GET<Blob>(`/api/v1/billing/top-ups/${encodeURIComponent(topUpId)}/receipt.pdf`, { parseAs: 'blob' })),
  };
}
