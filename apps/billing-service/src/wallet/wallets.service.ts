import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AdjustWalletBody,
  BILLING_PLANS,
  Topics,
  newId,
  problem,
  ProblemTypes,
  type BillingPlan,
  type LedgerTransactionRecord,
  type Page,
  type WalletLowBalanceData,
  type WalletRecord,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { BalanceView } from '../balance-view/balance-view';
import { Outbox } from '../outbox/outbox';
import { LedgerBatch, fromMicros, post, toMicros, type Posting, type PostResult } from './ledger';
import { toTransactionRecord, toWalletRecord, type TransactionRow, type WalletRow } from './wallets.mapper';

const MAX_PAGE = 100;

/** Each tenant's prepaid wallet (CONTRACT.md §16); money moves only through balanced ledger transactions. */
@Injectable()
export class WalletsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: BillingServiceConfig,
    private readonly cursors: ListCursors,
    private readonly outbox: Outbox,
    private readonly view: BalanceView,
  ) {}

  /** The tenant's wallet row, created on first use and locked until the caller's transaction ends. */
  async lock(manager: EntityManager, tenantId: string): Promise<WalletRow> {
    await manager.query(
      `INSERT INTO wallets (tenant_id, currency, low_balance_threshold) VALUES ($1, $2, $3::numeric) ON CONFLICT (tenant_id) DO NOTHING`,
      [tenantId, this.config.BILLING_CURRENCY, this.config.BILLING_LOW_BALANCE_THRESHOLD],
    );
    // Every transaction on a wallet takes a new view version (the UPDATE locks the row): pushes to the gateway's view
    // that arrive out of order are told apart by it.
    const [[row]] = (await manager.query(`UPDATE wallets SET view_version = view_version + 1 WHERE tenant_id = $1 RETURNING *`, [tenantId])) as [WalletRow[], number];
    return row;
  }

  /** The tenant's wallet row, created on first use, read without a lock: for work that moves no money. */
  async read(manager: EntityManager, tenantId: string): Promise<WalletRow> {
    // the SELECT's snapshot predates the INSERT, so at most one of the two answers a row
    const [row] = (await manager.query(
      `WITH created AS (
         INSERT INTO wallets (tenant_id, currency, low_balance_threshold) VALUES ($1, $2, $3::numeric)
         ON CONFLICT (tenant_id) DO NOTHING RETURNING *)
       SELECT * FROM created UNION ALL SELECT * FROM wallets WHERE tenant_id = $1`,
      [tenantId, this.config.BILLING_CURRENCY, this.config.BILLING_LOW_BALANCE_THRESHOLD],
    )) as WalletRow[];
    if (row) return row;
    // another transaction created it after this statement's snapshot was taken (the INSERT waited for it)
    const [created] = (await manager.query(`SELECT * FROM wallets WHERE tenant_id = $1`, [tenantId])) as WalletRow[];
    return created;
  }

  /**
   * The wallets of many tenants, created on first use and locked until the caller's transaction ends, in tenant order
   * (two batches locking some of the same wallets wait for each other instead of deadlocking). One view version each.
   */
  async lockMany(manager: EntityManager, tenantIds: readonly string[]): Promise<Map<string, WalletRow>> {
    const ids = [...new Set(tenantIds)].sort();
    if (!ids.length) return new Map();
    await manager.query(
      `INSERT INTO wallets (tenant_id, currency, low_balance_threshold)
       SELECT t, $2, $3::numeric FROM unnest($1::text[]) AS t ORDER BY t ON CONFLICT (tenant_id) DO NOTHING`,
      [ids, this.config.BILLING_CURRENCY, this.config.BILLING_LOW_BALANCE_THRESHOLD],
    );
    const [rows] = (await manager.query(
      `UPDATE wallets w SET view_version = w.view_version + 1
         FROM (SELECT tenant_id FROM wallets WHERE tenant_id = ANY($1) ORDER BY tenant_id FOR UPDATE) locked
        WHERE w.tenant_id = locked.tenant_id RETURNING w.*`,
      [ids],
    )) as [WalletRow[], number];
    return new Map(rows.map((row) => [row.tenant_id, row]));
  }

  /** Postings on wallets `lockMany` locked, decided one by one as `postAndWatch` would (see LedgerBatch). */
  batch(wallets: ReadonlyMap<string, WalletRow>): LedgerBatch {
    return new LedgerBatch(wallets);
  }

  /**
   * Writes a batch's postings, then its low-balance watch as `postAndWatch` after each posting would have kept it:
   * every fall below a wallet's threshold queues one `wallet.low_balance` with the balance that posting left.
   */
  async writeAndWatch(manager: EntityManager, batch: LedgerBatch): Promise<void> {
    await batch.write(manager);
    const below = new Map<string, boolean>();
    const warnings: { envelope: ReturnType<typeof EventPublisher.envelope>; key: string }[] = [];
    for (const p of batch.posted) {
      const wallet = batch.wallets.get(p.tenantId)!;
      const was = below.get(p.tenantId) ?? wallet.below_threshold;
      const now = p.balanceAfter < toMicros(wallet.low_balance_threshold);
      if (now === was) continue;
      below.set(p.tenantId, now);
      if (!now) continue;
      const data: WalletLowBalanceData = {
        event: 'wallet.low_balance',
        tenant_id: p.tenantId,
        balance: fromMicros(p.balanceAfter),
        low_balance_threshold: fromMicros(toMicros(wallet.low_balance_threshold)),
        currency: wallet.currency,
        at: new Date().toISOString(),
      };
      warnings.push({ envelope: EventPublisher.envelope(Topics.WalletLowBalance, p.tenantId, data, newId('evt')), key: p.tenantId });
    }
    const changed = [...below].filter(([tenantId, now]) => now !== batch.wallets.get(tenantId)!.below_threshold);
    if (changed.length) {
      await manager.query(`UPDATE wallets w SET below_threshold = x.below FROM unnest($1::text[], $2::boolean[]) AS x(tenant_id, below) WHERE w.tenant_id = x.tenant_id`, [
        changed.map(([tenantId]) => tenantId),
        changed.map(([, now]) => now),
      ]);
    }
    await this.outbox.addMany(manager, warnings);
  }

  /**
   * Posts a transaction on a wallet locked by `manager`, then notes a crossing of the low-balance threshold: the
   * first fall below it queues one `wallet.low_balance`; getting back to it or above re-arms the warning.
   */
  async postAndWatch(manager: EntityManager, posting: Posting): Promise<PostResult> {
    const result = await post(manager, posting);
    if (!result.posted) return result;
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const [[crossing]] = (await manager.query(
      `UPDATE wallets SET below_threshold = balance < low_balance_threshold
        WHERE tenant_id = $1 AND below_threshold <> (balance < low_balance_threshold)
        RETURNING below_threshold, balance::text, low_balance_threshold::text, currency`,
      [posting.tenantId],
    )) as [{ below_threshold: boolean; balance: string; low_balance_threshold: string; currency: string }[], number];
    if (crossing?.below_threshold) {
      const data: WalletLowBalanceData = {
        event: 'wallet.low_balance',
        tenant_id: posting.tenantId,
        balance: crossing.balance,
        low_balance_threshold: crossing.low_balance_threshold,
        currency: crossing.currency,
        at: new Date().toISOString(),
      };
      await this.outbox.add(manager, EventPublisher.envelope(Topics.WalletLowBalance, posting.tenantId, data, newId('evt')), posting.tenantId);
    }
    return result;
  }

  /** Runs `work` in a transaction and publishes what it queued once it has committed. */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.outbox.flushSoon();
    return result;
  }

  async get(tenantId: string): Promise<WalletRecord> {
    const [row] = (await this.db.query(`SELECT * FROM wallets WHERE tenant_id = $1`, [tenantId])) as WalletRow[];
    if (row) return toWalletRecord(row);
    // No wallet yet: what it will be once first used (nothing is written by a read).
    return {
      balance: '0.000000',
      held: '0.000000',
      currency: this.config.BILLING_CURRENCY,
      low_balance_threshold: Number(this.config.BILLING_LOW_BALANCE_THRESHOLD).toFixed(6),
      plan: 'free',
    };
  }

  async transactions(tenantId: string, limit: number, cursor: string | null): Promise<Page<LedgerTransactionRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'billing-transactions');
    const after = cursors.after(cursor);
    const rows = (await this.db.query(
      `SELECT t.*, coalesce((SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account = 'wallet'), 0)::numeric(20, 6) AS balance_change
         FROM ledger_transactions t
        WHERE t.tenant_id = $1 AND ($2::bigint IS NULL OR t.seq < $2::bigint)
        ORDER BY t.seq DESC LIMIT $3`,
      [tenantId, after, take + 1],
    )) as TransactionRow[];
    return { data: rows.slice(0, take).map(toTransactionRecord), next_cursor: cursors.next(rows, take, (row) => row.seq) };
  }

  /** An operator's credit or debit; idempotent on its reference. A debit below zero answers 409 insufficient-funds. */
  async adjust(tenantId: string, rawBody: unknown): Promise<LedgerTransactionRecord> {
    const body = await validateDto(AdjustWalletBody, rawBody);
    const credit = !body.amount.startsWith('-');
    const amount = body.amount.replace(/^-/, '');
    if (Number(amount) === 0) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', 'The amount must not be zero.', [{ field: 'amount', message: 'amount must not be zero' }]));
    }
    const id = await this.transaction(async (manager) => {
      const wallet = await this.lock(manager, tenantId);
      const result = await this.postAndWatch(manager, {
        tenantId,
        type: 'adjustment',
        amount,
        credit,
        currency: wallet.currency,
        causeId: body.reference,
        description: body.description,
      });
      if (result.posted) return result.id;
      if (result.reason === 'insufficient_funds') {
        throw new ProblemException(problem(409, ProblemTypes.insufficientFunds, 'Insufficient Funds', `The balance (${wallet.balance} ${wallet.currency}) cannot cover this debit.`));
      }
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `An adjustment with reference "${body.reference}" was already made.`));
    });
    await this.view.push(tenantId);
    const [row] = (await this.db.query(
      `SELECT t.*, coalesce((SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account = 'wallet'), 0)::numeric(20, 6) AS balance_change
         FROM ledger_transactions t WHERE t.id = $1`,
      [id],
    )) as TransactionRow[];
    return toTransactionRecord(row);
  }

  /** Credits a payment once per `paymentId` (the payment provider's webhook calls this however often it is redelivered). */
  async topUp(tenantId: string, amount: string, paymentId: string): Promise<PostResult> {
    const result = await this.transaction(async (manager) => {
      const wallet = await this.lock(manager, tenantId);
      return this.postAndWatch(manager, { tenantId, type: 'top_up', amount, currency: wallet.currency, causeId: paymentId, description: 'top-up' });
    });
    await this.view.push(tenantId);
    return result;
  }

  async setPlan(tenantId: string, plan: BillingPlan): Promise<{ tenant_id: string; plan: BillingPlan }> {
    if (!BILLING_PLANS.includes(plan)) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', 'Unknown plan.', [{ field: 'plan', message: `plan must be one of: ${BILLING_PLANS.join(', ')}` }]));
    }
    await this.transaction(async (manager) => {
      await this.lock(manager, tenantId);
      await manager.query(`UPDATE wallets SET plan = $2, updated_at = now() WHERE tenant_id = $1`, [tenantId, plan]);
    });
    await this.view.push(tenantId);
    return { tenant_id: tenantId, plan };
  }
}
