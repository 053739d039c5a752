import type { EventEnvelope } from './envelope';

/** `wallet.low_balance` (public webhook body, CONTRACT.md §16): the balance fell below the threshold (once per crossing). */
export interface WalletLowBalanceData {
  event: 'wallet.low_balance';
  tenant_id: string;
  /** Decimal strings in `currency`. */
  balance: string;
  low_balance_threshold: string;
  currency: string;
  at: string;
}

export type WalletLowBalanceEvent = EventEnvelope<'wallet.low_balance', WalletLowBalanceData>;

/** `tenant.plan_changed` (internal): an operator changed a tenant's plan; billing prices its sends by it. */
export interface TenantPlanChangedData {
  tenant_id: string;
  plan: 'free' | 'pro' | 'enterprise';
  at: string;
}

export type TenantPlanChangedEvent = EventEnvelope<'tenant.plan_changed', TenantPlanChangedData>;

/**
 * Whose API key served an LLM call: the platform's (the global `LLM_*` settings; the tenant's wallet pays its tokens)
 * or the tenant's own (`PUT /api/v1/settings/llm`; the tenant pays its provider, billing charges nothing).
 */
export type LlmKeyOwner = 'platform' | 'tenant';

/** `llm.usage` (internal): the tokens one LLM call used for a tenant's reply; billing meters and prices them. */
export interface LlmUsageData {
  tenant_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /**
   * Whose key served the call. `tenant`: billing meters the tokens and counts them against the tenant's LLM budget
   * (`llm.spend`) but does not charge the wallet. Absent (events published before this field) means `platform`.
   */
  key?: LlmKeyOwner;
  /** When the call answered. */
  at: string;
}

export type LlmUsageEvent = EventEnvelope<'llm.usage', LlmUsageData>;

/**
 * `llm.spend` (internal): what the tenant's LLM tokens of one calendar month (UTC) have cost so far, priced by the price
 * book as each call was metered. A running total, so a redelivered or late event never adds twice; the responder
 * stops calling the tenant's LLM once it reaches the tenant's `monthly_budget` (CONTRACT.md §16).
 */
export interface LlmSpendData {
  tenant_id: string;
  /** `YYYY-MM` (UTC). */
  month: string;
  /** Decimal string in `currency`. */
  spend: string;
  currency: string;
  at: string;
}

export type LlmSpendEvent = EventEnvelope<'llm.spend', LlmSpendData>;
