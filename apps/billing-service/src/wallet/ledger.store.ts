import { Injectable } from '@nestjs/common';
import type { LedgerTransactionType } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import type { LedgerAccount } from './ledger';

/** A ledger transaction to write: the tenant's cause of a kind is written once. */
export interface LedgerTransactionInsert {
  id: string;
  type: LedgerTransactionType;
  /** Positive decimal string. */
  amount: string;
  currency: string;
  causeId: string;
  description: string | null;
}

/** One leg of a ledger transaction. */
export interface LedgerEntryInsert {
  transactionId: string;
  tenantId: string;
  account: LedgerAccount;
  /** Signed decimal string: the debit leg negative. */
  amount: string;
  currency: string;
}

/**
 * SQL of the double-entry ledger. Every statement runs in the caller's transaction, on wallets it has locked: the
 * database's triggers move each wallet's cached balance with its entries and check at commit that each transaction
 * balances.
 */
@Injectable()
export class LedgerStore {
  /** Whether the wallet's balance moved by `walletChange` (signed decimal) stays at zero or above; null without a wallet. */
  async covers(tenantId: string, walletChange: string, tx: EntityManager): Promise<boolean | null> {
    const [covered] = (await tx.query(`SELECT balance + $2::numeric >= 0 AS ok FROM wallets WHERE tenant_id = $1`, [tenantId, walletChange])) as { ok: boolean }[];
    return covered ? covered.ok : null;
  }

  /** Writes a transaction with the balance it leaves; false when its cause was posted already (nothing written). */
  async insert(tenantId: string, t: LedgerTransactionInsert, walletChange: string, tx: EntityManager): Promise<boolean> {
    const inserted = (await tx.query(
      `INSERT INTO ledger_transactions (id, tenant_id, kind, amount, currency, cause_id, description, balance_after)
       SELECT $1, $2, $3, $4::numeric, $5, $6, $7, balance + $8::numeric FROM wallets WHERE tenant_id = $2
       ON CONFLICT ON CONSTRAINT ledger_transactions_once DO NOTHING RETURNING id`,
      [t.id, tenantId, t.type, t.amount, t.currency, t.causeId, t.description, walletChange],
    )) as { id: string }[];
    return inserted.length > 0;
  }

  /** A transaction's two legs: `amount` from one account to the other. */
  async insertLegs(tenantId: string, transactionId: string, legs: { from: LedgerAccount; to: LedgerAccount }, amount: string, currency: string, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO ledger_entries (transaction_id, tenant_id, account, amount, currency)
       VALUES ($1, $2, $3, -$5::numeric, $6), ($1, $2, $4, $5::numeric, $6)`,
      [transactionId, tenantId, legs.from, legs.to, amount, currency],
    );
  }

  /**
   * Many transactions of many tenants in one statement, in the given order, each with the balance it leaves (decimal);
   * answers the ids written (a cause posted already is not).
   */
  async insertMany(transactions: readonly (LedgerTransactionInsert & { tenantId: string; balanceAfter: string })[], tx: EntityManager): Promise<Set<string>> {
    const col = <T>(pick: (t: LedgerTransactionInsert & { tenantId: string; balanceAfter: string }) => T) => transactions.map(pick);
    const inserted = (await tx.query(
      `INSERT INTO ledger_transactions (id, tenant_id, kind, amount, currency, cause_id, description, balance_after)
       SELECT id, tenant_id, kind, amount, currency, cause_id, description, balance_after
         FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::numeric[])
              WITH ORDINALITY AS x(id, tenant_id, kind, amount, currency, cause_id, description, balance_after, n)
        ORDER BY n
       ON CONFLICT ON CONSTRAINT ledger_transactions_once DO NOTHING RETURNING id`,
      [
        col((t) => t.id),
        col((t) => t.tenantId),
        col((t) => t.type),
        col((t) => t.amount),
        col((t) => t.currency),
        col((t) => t.causeId),
        col((t) => t.description),
        col((t) => t.balanceAfter),
      ],
    )) as { id: string }[];
    return new Set(inserted.map((row) => row.id));
  }

  /** Entries of many transactions in one statement, in the given order (the trigger moves each wallet entry by entry). */
  async insertEntries(entries: readonly LedgerEntryInsert[], tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO ledger_entries (transaction_id, tenant_id, account, amount, currency)
       SELECT transaction_id, tenant_id, account, amount, currency
         FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[]) WITH ORDINALITY AS x(transaction_id, tenant_id, account, amount, currency, n)
        ORDER BY n`,
      [entries.map((e) => e.transactionId), entries.map((e) => e.tenantId), entries.map((e) => e.account), entries.map((e) => e.amount), entries.map((e) => e.currency)],
    );
  }
}
