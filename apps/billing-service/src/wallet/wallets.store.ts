import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillingPlan } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { TransactionRow, WalletRow } from './wallets.mapper';

/** What a wallet created on first use starts with. */
export interface NewWallet {
  currency: string;
  /** Decimal string. */
  lowBalanceThreshold: string;
}

/** A wallet whose low-balance watch just changed, as the posting left it. */
export interface ThresholdCrossing {
  below_threshold: boolean;
  balance: string;
  low_balance_threshold: string;
  currency: string;
}

/**
 * SQL of the wallets and their transaction history. The tenant id is the first parameter; methods that must go with
 * the caller's other writes (locks, postings, their events) take its `tx` last.
 */
@Injectable()
export class WalletsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The tenant's wallet row, created on first use and locked until `tx` ends; every lock takes a new view version. */
  async lock(tenantId: string, created: NewWallet, tx: EntityManager): Promise<WalletRow> {
    await tx.query(
      `INSERT INTO wallets (tenant_id, currency, low_balance_threshold) VALUES ($1, $2, $3::numeric) ON CONFLICT (tenant_id) DO NOTHING`,
      [tenantId, created.currency, created.lowBalanceThreshold],
    );
    // Every transaction on a wallet takes a new view version (the UPDATE locks the row): pushes to the gateway's view
    // that arrive out of order are told apart by it.
    const [[row]] = (await tx.query(`UPDATE wallets SET view_version = view_version + 1 WHERE tenant_id = $1 RETURNING *`, [tenantId])) as [WalletRow[], number];
    return row;
  }

  /** The tenant's wallet row, created on first use, read without a lock. */
  async read(tenantId: string, created: NewWallet, tx: EntityManager): Promise<WalletRow> {
    // the SELECT's snapshot predates the INSERT, so at most one of the two answers a row
    const [row] = (await tx.query(
      `WITH created AS (
         INSERT INTO wallets (tenant_id, currency, low_balance_threshold) VALUES ($1, $2, $3::numeric)
         ON CONFLICT (tenant_id) DO NOTHING RETURNING *)
       SELECT * FROM created UNION ALL SELECT * FROM wallets WHERE tenant_id = $1`,
      [tenantId, created.currency, created.lowBalanceThreshold],
    )) as WalletRow[];
    if (row) return row;
    // another transaction created it after this statement's snapshot was taken (the INSERT waited for it)
    const [later] = (await tx.query(`SELECT * FROM wallets WHERE tenant_id = $1`, [tenantId])) as WalletRow[];
    return later;
  }

  /**
   * The wallets of many tenants, created on first use and locked until `tx` ends, in tenant order (two batches locking
   * some of the same wallets wait for each other instead of deadlocking). One view version each.
   */
  async lockMany(tenantIds: readonly string[], created: NewWallet, tx: EntityManager): Promise<Map<string, WalletRow>> {
    const ids = [...new Set(tenantIds)].sort();
    if (!ids.length) return new Map();
    await tx.query(
      `INSERT INTO wallets (tenant_id, currency, low_balance_threshold)
       SELECT t, $2, $3::numeric FROM unnest($1::text[]) AS t ORDER BY t ON CONFLICT (tenant_id) DO NOTHING`,
      [ids, created.currency, created.lowBalanceThreshold],
    );
    const [rows] = (await tx.query(
      `UPDATE wallets w SET view_version = w.view_version + 1
         FROM (SELECT tenant_id FROM wallets WHERE tenant_id = ANY($1) ORDER BY tenant_id FOR UPDATE) locked
        WHERE w.tenant_id = locked.tenant_id RETURNING w.*`,
      [ids],
    )) as [WalletRow[], number];
    return new Map(rows.map((row) => [row.tenant_id, row]));
  }

  /** Brings the low-balance watch up to the wallet's balance; the wallet as it is when that changed it, else undefined. */
  async noteCrossing(tenantId: string, tx: EntityManager): Promise<ThresholdCrossing | undefined> {
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const [[crossing]] = (await tx.query(
      `UPDATE wallets SET below_threshold = balance < low_balance_threshold
        WHERE tenant_id = $1 AND below_threshold <> (balance < low_balance_threshold)
        RETURNING below_threshold, balance::text, low_balance_threshold::text, currency`,
      [tenantId],
    )) as [ThresholdCrossing[], number];
    return crossing;
  }

  /** Sets the low-balance watch of many wallets in one statement. */
  async setBelowThreshold(changes: readonly { tenantId: string; below: boolean }[], tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE wallets w SET below_threshold = x.below FROM unnest($1::text[], $2::boolean[]) AS x(tenant_id, below) WHERE w.tenant_id = x.tenant_id`, [
      changes.map((c) => c.tenantId),
      changes.map((c) => c.below),
    ]);
  }

  async setPlan(tenantId: string, plan: BillingPlan, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE wallets SET plan = $2, updated_at = now() WHERE tenant_id = $1`, [tenantId, plan]);
  }

  async find(tenantId: string): Promise<WalletRow | null> {
    const [row] = (await this.db.query(`SELECT * FROM wallets WHERE tenant_id = $1`, [tenantId])) as WalletRow[];
    return row ?? null;
  }

  /** Newest first: up to `limit` transactions posted before `beforeSeq` (null: from the newest), with what each did to the wallet. */
  transactions(tenantId: string, beforeSeq: string | null, limit: number): Promise<TransactionRow[]> {
    return this.db.query(
      `SELECT t.*, coalesce((SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account = 'wallet'), 0)::numeric(20, 6) AS balance_change
         FROM ledger_transactions t
        WHERE t.tenant_id = $1 AND ($2::bigint IS NULL OR t.seq < $2::bigint)
        ORDER BY t.seq DESC LIMIT $3`,
      [tenantId, beforeSeq, limit],
    ) as Promise<TransactionRow[]>;
  }

  async findTransaction(tenantId: string, id: string): Promise<TransactionRow | null> {
    const [row] = (await this.db.query(
      `SELECT t.*, coalesce((SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account = 'wallet'), 0)::numeric(20, 6) AS balance_change
         FROM ledger_transactions t WHERE t.id = $1 AND t.tenant_id = $2`,
      [id, tenantId],
    )) as TransactionRow[];
    return row ?? null;
  }
}
