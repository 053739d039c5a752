import type { BillingPlan, LedgerTransactionRecord, LedgerTransactionType, WalletRecord } from '@parley/contracts';

/** A `wallets` row as pg returns it: `numeric` columns arrive as decimal strings and stay strings. */
export interface WalletRow {
  tenant_id: string;
  plan: BillingPlan;
  currency: string;
  balance: string;
  held: string;
  low_balance_threshold: string;
  below_threshold: boolean;
}

export interface TransactionRow {
  id: string;
  /** bigserial: pg returns it as a string. */
  seq: string;
  kind: LedgerTransactionType;
  amount: string;
  currency: string;
  cause_id: string;
  description: string | null;
  balance_after: string;
  balance_change: string;
  created_at: Date;
}

export function toWalletRecord(row: WalletRow): WalletRecord {
  return { balance: row.balance, currency: row.currency, low_balance_threshold: row.low_balance_threshold, held: row.held, plan: row.plan };
}

export function toTransactionRecord(row: TransactionRow): LedgerTransactionRecord {
  return {
    id: row.id,
    type: row.kind,
    amount: row.amount,
    balance_change: row.balance_change,
    balance_after: row.balance_after,
    currency: row.currency,
    cause_id: row.cause_id,
    description: row.description,
    created_at: row.created_at.toISOString(),
  };
}
