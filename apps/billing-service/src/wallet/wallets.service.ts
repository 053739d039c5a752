import { Injectable } from '@nestjs/common';
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
import type { EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { BalanceView } from '../balance-view/balance-view';
import { Outbox } from '../outbox/outbox';
import { LedgerBatch, fromMicros, post, toMicros, type Posting, type PostResult } from './ledger';
import { LedgerStore } from './ledger.store';
import { toTransactionRecord, toWalletRecord, type WalletRow } from './wallets.mapper';
import { WalletsStore, type NewWallet } from './wallets.store';

const MAX_PAGE = 100;

/** Each tenant's prepaid wallet (CONTRACT.md §16); money moves only through balanced ledger transactions. */
@Injectable()
export class WalletsService {
  constructor(
    private readonly store: WalletsStore,
    private readonly ledger: LedgerStore,
    private readonly config: BillingServiceConfig,
    private readonly cursors: ListCursors,
    private readonly outbox: Outbox,
    private readonly view: BalanceView,
  ) {}

  /** The tenant's wallet row, created on first use and locked until the caller's transaction ends. */
  lock(manager: EntityManager, tenantId: string): Promise<WalletRow> {
    return this.store.lock(tenantId, this.newWallet(), manager);
  }

  /** The tenant's wallet row, created on first use, read without a lock: for work that moves no money. */
  read(manager: EntityManager, tenantId: string): Promise<WalletRow> {
    return this.store.read(tenantId, this.newWallet(), manager);
  }

  /**
   * The wallets of many tenants, created on first use and locked until the caller's transaction ends, in tenant order
   * (two batches locking some of the same wallets wait for each other instead of deadlocking). One view version each.
   */
  lockMany(manager: EntityManager, tenantIds: readonly string[]): Promise<Map<string, WalletRow>> {
    return this.store.lockMany(tenantIds, this.newWallet(), manager);
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
    await batch.write(this.ledger, manager);
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
      await this.store.setBelowThreshold(
        changed.map(([tenantId, now]) => ({ tenantId, below: now })),
        manager,
      );
    }
    await this.outbox.addMany(manager, warnings);
  }

  /**
   * Posts a transaction on a wallet locked by `manager`, then notes a crossing of the low-balance threshold: the
   * first fall below it queues one `wallet.low_balance`; getting back to it or above re-arms the warning.
   */
  async postAndWatch(manager: EntityManager, posting: Posting): Promise<PostResult> {
    const result = await post(this.ledger, posting, manager);
    if (!result.posted) return result;
    const crossing = await this.store.noteCrossing(posting.tenantId, manager);
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
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.outbox.relayAfter((w) => this.store.transaction(w), work);
  }

  async get(tenantId: string): Promise<WalletRecord> {
    const row = await this.store.find(tenantId);
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
    const rows = await this.store.transactions(tenantId, after, take + 1);
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
    return toTransactionRecord((await this.store.findTransaction(tenantId, id))!);
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

  /** What a wallet created on first use starts with. */
  private newWallet(): NewWallet {
    return { currency: this.config.BILLING_CURRENCY, lowBalanceThreshold: this.config.BILLING_LOW_BALANCE_THRESHOLD };
  }

  async setPlan(tenantId: string, plan: BillingPlan): Promise<{ tenant_id: string; plan: BillingPlan }> {
    if (!BILLING_PLANS.includes(plan)) {
      throw new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', 'Unknown plan.', [{ field: 'plan', message: `plan must be one of: ${BILLING_PLANS.join(', ')}` }]));
    }
    await this.transaction(async (manager) => {
      await this.lock(manager, tenantId);
      await this.store.setPlan(tenantId, plan, manager);
    });
    await this.view.push(tenantId);
    return { tenant_id: tenantId, plan };
  }
}
