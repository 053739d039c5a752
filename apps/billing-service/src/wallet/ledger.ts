import { newId, type LedgerTransactionType } from '@parley/contracts';
import type { EntityManager } from 'typeorm';

export type LedgerAccount = 'wallet' | 'holds' | 'revenue' | 'funding' | 'adjustments';

/**
 * The double entry of each kind of transaction: the account debited and the account credited by its amount. The
 * wallet's balance is the sum of its `wallet` entries; the database keeps that sum cached on the wallet row.
 */
const LEGS: Record<Exclude<LedgerTransactionType, 'adjustment'>, { from: LedgerAccount; to: LedgerAccount }> = {
  top_up: { from: 'funding', to: 'wallet' },
  hold: { from: 'wallet', to: 'holds' },
  settlement: { from: 'holds', to: 'revenue' },
  release: { from: 'holds', to: 'wallet' },
  refund: { from: 'revenue', to: 'wallet' },
};

export interface Posting {
  tenantId: string;
  type: LedgerTransactionType;
  /** Positive decimal string. For an adjustment, `credit` says which way it goes. */
  amount: string;
  currency: string;
  causeId: string;
  description?: string | null;
  credit?: boolean;
}

export type PostResult = { posted: true; id: string } | { posted: false; reason: 'duplicate' | 'insufficient_funds' };

/**
 * Posts one balanced transaction inside the caller's database transaction, with the wallet row already locked by it
 * (`Wallets.lock`). Idempotent on (tenant, type, cause): a second posting of the same cause is a `duplicate`. A debit
 * the wallet cannot cover is refused before anything is written (the wallet's CHECK would refuse it anyway).
 */
export async function post(manager: EntityManager, p: Posting): Promise<PostResult> {
  const legs = p.type === 'adjustment' ? (p.credit ? { from: 'adjustments', to: 'wallet' } : { from: 'wallet', to: 'adjustments' }) : LEGS[p.type];
  const walletChange = legs.to === 'wallet' ? p.amount : legs.from === 'wallet' ? `-${p.amount}` : '0';
  const [covered] = (await manager.query(`SELECT balance + $2::numeric >= 0 AS ok FROM wallets WHERE tenant_id = $1`, [p.tenantId, walletChange])) as {
    ok: boolean;
  }[];
  if (!covered) throw new Error(`no wallet for ${p.tenantId}: lock it first`);
  if (!covered.ok) return { posted: false, reason: 'insufficient_funds' };

  const id = newId('txn');
  const inserted = (await manager.query(
    `INSERT INTO ledger_transactions (id, tenant_id, kind, amount, currency, cause_id, description, balance_after)
     SELECT $1, $2, $3, $4::numeric, $5, $6, $7, balance + $8::numeric FROM wallets WHERE tenant_id = $2
     ON CONFLICT ON CONSTRAINT ledger_transactions_once DO NOTHING RETURNING id`,
    [id, p.tenantId, p.type, p.amount, p.currency, p.causeId, p.description ?? null, walletChange],
  )) as { id: string }[];
  if (!inserted.length) return { posted: false, reason: 'duplicate' };
  await manager.query(
    `INSERT INTO ledger_entries (transaction_id, tenant_id, account, amount, currency)
     VALUES ($1, $2, $3, -$5::numeric, $6), ($1, $2, $4, $5::numeric, $6)`,
    [id, p.tenantId, legs.from, legs.to, p.amount, p.currency],
  );
  return { posted: true, id };
}
