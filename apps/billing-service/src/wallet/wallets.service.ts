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
import { post, type Posting, type PostResult } from './ledger';
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
