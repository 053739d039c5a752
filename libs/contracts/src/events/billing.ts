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

/** `llm.usage` (internal): the tokens one LLM call used for a tenant's reply; billing meters and prices them. */
export interface LlmUsageData {
  tenant_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** When the call answered. */
  at: string;
}

export type LlmUsageEvent = EventEnvelope<'llm.usage', LlmUsageData>;
