import type { ParleyClient, components, paths } from '@parley/api-client';
import { ApiError, unwrap } from './http';

// Billing (CONTRACT.md §16, §9): wallet, ledger, usage, prices, estimates, top-ups, receipts and invoices, every
// shape the generated client's. Amounts are decimal strings in their currency.

type Schemas = components['schemas'];

/** The prepaid wallet; `enforced`: a paid send the balance cannot cover is refused (BILLING_ENFORCED). */
export type WalletRecord = Schemas['Wallet'];
/** One line of the price book (`GET /api/v1/billing/prices`). */
export type PriceRecord = Schemas['Price'];
/** This month's usage against the free allowance (`GET /api/v1/billing/usage/month`). */
export type MonthUsageRecord = Schemas['MonthUsage'];
/** What a number of sends would cost now (`GET /api/v1/billing/estimate`). */
export type CostEstimateRecord = Schemas['CostEstimate'];
export type LedgerTransactionRecord = Schemas['LedgerTransaction'];
/** A page of the ledger, newest first. */
export type LedgerTransactionPage = Schemas['LedgerTransactionPage'];
export type UsageDayRecord = Schemas['UsageDay'];
export type TopUpRecord = Schemas['TopUp'];
export type InvoiceRecord = Schemas['Invoice'];
export type InvoicePage = Schemas['InvoicePage'];

/** The tenant's own LLM (CONTRACT.md §16): the key is write-only, its last four characters come back. */
export type LlmSettings = Schemas['LlmSettings'];
export type LlmSettingsBody = Omit<NonNullable<paths['/api/v1/settings/llm']['put']['requestBody']>['content']['application/json'], 'tenant_id'>;

export function createBillingApi(api: ParleyClient) {
  return {
    wallet: () => unwrap(api.GET('/api/v1/billing/wallet')),
    transactions: (cursor: string | null) => unwrap(api.GET('/api/v1/billing/transactions', { params: { query: { limit: 20, ...(cursor ? { cursor } : {}) } } })),
    usageByDay: (days: number) => unwrap(api.GET('/api/v1/billing/usage', { params: { query: { days } } })),
    monthUsage: () => unwrap(api.GET('/api/v1/billing/usage/month')),
    prices: () => unwrap(api.GET('/api/v1/billing/prices')),
    /** What `quantity` sends of a template would cost now (the free allowance left taken off first). */
    estimate: (quantity: number, template: { name: string; language: string }) =>
      unwrap(api.GET('/api/v1/billing/estimate', { params: { query: { quantity: String(quantity), template_name: template.name, template_language: template.language } } })),
    createTopUp: (amount: string) => unwrap(api.POST('/api/v1/billing/top-ups', { body: { amount } })),
    /** The tenant's invoices, or null where the gateway has no invoices route (404). */
    invoices: async (): Promise<InvoicePage | null> => {
      try {
        return await unwrap(api.GET('/api/v1/billing/invoices', { params: { query: { limit: 100 } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    /** The tenant's LLM settings, or null while it uses the platform's LLM. */
    llmSettings: async (): Promise<LlmSettings | null> => {
      // `{source: "platform"}` while it has none of its own: an answer, not an error (no 404 in the console)
      const inUse = await unwrap(api.GET('/api/v1/settings/llm'));
      if (inUse.source !== 'tenant') return null;
      const { source: _source, ...settings } = inUse;
      return settings;
    },
    putLlmSettings: (body: LlmSettingsBody) => unwrap(api.PUT('/api/v1/settings/llm', { body })),
    deleteLlmSettings: () => unwrap(api.DELETE('/api/v1/settings/llm')),
    /** An invoice's PDF (`inv_….pdf`), fetched with the session's credential (a bearer token cannot ride on a plain link). */
    invoicePdf: (id: string) => unwrap(api.GET('/api/v1/billing/invoices/{file}', { params: { path: { file: `${id}.pdf` } }, parseAs: 'blob' })),
    /** Invoices the month so far (the period since the last invoice), numbered like the monthly ones. */
    issueInvoice: () => unwrap(api.POST('/api/v1/billing/invoices')),
    /** A paid top-up's receipt (its id is the `cause_id` of its `top_up` transaction). */
    receiptPdf: (topUpId: string) => unwrap(api.GET('/api/v1/billing/top-ups/{id}/receipt.pdf', { params: { path: { id: topUpId } }, parseAs: 'blob' })),
  };
}
