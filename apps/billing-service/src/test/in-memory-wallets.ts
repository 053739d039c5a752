import type { EventEnvelope } from '@parley/contracts';
import { ListCursors, type RunsInTransaction } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import type { BalanceView } from '../balance-view/balance-view';
import type { BillingServiceConfig } from '../config/billing-service.config';
import type { Outbox } from '../outbox/outbox';
import { fromMicros, toMicros, type LedgerAccount } from '../wallet/ledger';
import type { LedgerEntryInsert, LedgerStore, LedgerTransactionInsert } from '../wallet/ledger.store';
import type { TransactionRow, WalletRow } from '../wallet/wallets.mapper';
import { WalletsService } from '../wallet/wallets.service';
import type { NewWallet, ThresholdCrossing, WalletsStore } from '../wallet/wallets.store';

/**
 * WalletsStore and LedgerStore in memory, for unit specs of the services deciding on them (their SQL runs against
 * PostgreSQL in the integration specs): the ledger takes a tenant's cause of a kind once, an entry moves its wallet as
 * the database's trigger does, and a unit of work that throws leaves nothing behind, events queued in it included.
 */
export class InMemoryWallets
  implements
    Pick<WalletsStore, 'transaction' | 'lock' | 'read' | 'lockMany' | 'noteCrossing' | 'setBelowThreshold' | 'setPlan' | 'find' | 'transactions' | 'findTransaction'>,
    Pick<LedgerStore, 'covers' | 'insert' | 'insertLegs' | 'insertMany' | 'insertEntries'>
{
  wallets = new Map<string, WalletRow>();
  transactionRows: (Omit<TransactionRow, 'balance_change'> & { tenant_id: string })[] = [];
  entries: LedgerEntryInsert[] = [];
  /** Events the outbox queued in committed units of work. */
  events: EventEnvelope[] = [];
  private pending: EventEnvelope[] = [];
  private readonly tx = {} as EntityManager;

  async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const before = { wallets: new Map([...this.wallets].map(([id, w]) => [id, { ...w }])), transactionRows: [...this.transactionRows], entries: [...this.entries] };
    this.pending = [];
    try {
      const result = await work(this.tx);
      this.events.push(...this.pending);
      return result;
    } catch (err) {
      Object.assign(this, before);
      throw err;
    } finally {
      this.pending = [];
    }
  }

  /** The outbox, queuing into the unit of work in progress. */
  outbox(): Outbox {
    return {
      add: async (_tx: EntityManager, envelope: EventEnvelope) => void this.pending.push(envelope),
      addMany: async (_tx: EntityManager, events: readonly { envelope: EventEnvelope }[]) => void this.pending.push(...events.map((e) => e.envelope)),
      relayAfter: <T>(transaction: RunsInTransaction, work: (tx: EntityManager) => Promise<T>) => transaction(work),
    } as unknown as Outbox;
  }

  async lock(tenantId: string, created: NewWallet): Promise<WalletRow> {
    return this.read(tenantId, created);
  }

  async read(tenantId: string, created: NewWallet): Promise<WalletRow> {
    if (!this.wallets.has(tenantId)) {
      this.wallets.set(tenantId, {
        tenant_id: tenantId,
        plan: 'free',
        currency: created.currency,
        balance: fromMicros(0n),
        held: fromMicros(0n),
        low_balance_threshold: fromMicros(toMicros(created.lowBalanceThreshold)),
        below_threshold: false,
      });
    }
    return { ...this.wallets.get(tenantId)! };
  }

  async lockMany(tenantIds: readonly string[], created: NewWallet): Promise<Map<string, WalletRow>> {
    const rows = await Promise.all([...new Set(tenantIds)].map((id) => this.lock(id, created)));
    return new Map(rows.map((row) => [row.tenant_id, row]));
  }

  async noteCrossing(tenantId: string): Promise<ThresholdCrossing | undefined> {
    const wallet = this.wallets.get(tenantId)!;
    const below = toMicros(wallet.balance) < toMicros(wallet.low_balance_threshold);
    if (below === wallet.below_threshold) return undefined;
    wallet.below_threshold = below;
    return { below_threshold: below, balance: wallet.balance, low_balance_threshold: wallet.low_balance_threshold, currency: wallet.currency };
  }

  async setBelowThreshold(changes: readonly { tenantId: string; below: boolean }[]): Promise<void> {
    for (const { tenantId, below } of changes) this.wallets.get(tenantId)!.below_threshold = below;
  }

  async setPlan(tenantId: string, plan: WalletRow['plan']): Promise<void> {
    this.wallets.get(tenantId)!.plan = plan;
  }

  async find(tenantId: string): Promise<WalletRow | null> {
    const wallet = this.wallets.get(tenantId);
    return wallet ? { ...wallet } : null;
  }

  async transactions(tenantId: string, beforeSeq: string | null, limit: number): Promise<TransactionRow[]> {
    return this.transactionRows
      .filter((t) => t.tenant_id === tenantId && (beforeSeq === null || Number(t.seq) < Number(beforeSeq)))
      .reverse()
      .slice(0, limit)
      .map((t) => this.withChange(t));
  }

  async findTransaction(tenantId: string, id: string): Promise<TransactionRow | null> {
    const row = this.transactionRows.find((t) => t.id === id && t.tenant_id === tenantId);
    return row ? this.withChange(row) : null;
  }

  async covers(tenantId: string, walletChange: string): Promise<boolean | null> {
    const wallet = this.wallets.get(tenantId);
    return wallet ? toMicros(wallet.balance) + toMicros(walletChange) >= 0n : null;
  }

  async insert(tenantId: string, t: LedgerTransactionInsert, walletChange: string): Promise<boolean> {
    const balanceAfter = fromMicros(toMicros(this.wallets.get(tenantId)!.balance) + toMicros(walletChange));
    return this.insertOne({ ...t, tenantId, balanceAfter });
  }

  async insertLegs(tenantId: string, transactionId: string, legs: { from: LedgerAccount; to: LedgerAccount }, amount: string, currency: string): Promise<void> {
    await this.insertEntries([
      { transactionId, tenantId, account: legs.from, amount: `-${amount}`, currency },
      { transactionId, tenantId, account: legs.to, amount, currency },
    ]);
  }

  async insertMany(transactions: readonly (LedgerTransactionInsert & { tenantId: string; balanceAfter: string })[]): Promise<Set<string>> {
    return new Set(transactions.filter((t) => this.insertOne(t)).map((t) => t.id));
  }

  async insertEntries(entries: readonly LedgerEntryInsert[]): Promise<void> {
    for (const entry of entries) {
      this.entries.push(entry);
      const wallet = this.wallets.get(entry.tenantId)!;
      if (entry.account === 'wallet') wallet.balance = fromMicros(toMicros(wallet.balance) + toMicros(entry.amount));
      if (entry.account === 'holds') wallet.held = fromMicros(toMicros(wallet.held) + toMicros(entry.amount));
      if (toMicros(wallet.balance) < 0n) throw new Error('wallets_balance_check');
    }
  }

  /** The wallet's balance as the ledger's wallet entries sum it. */
  ledgerBalance(tenantId: string): string {
    return fromMicros(this.entries.filter((e) => e.tenantId === tenantId && e.account === 'wallet').reduce((sum, e) => sum + toMicros(e.amount), 0n));
  }

  private insertOne(t: LedgerTransactionInsert & { tenantId: string; balanceAfter: string }): boolean {
    if (this.transactionRows.some((r) => r.tenant_id === t.tenantId && r.kind === t.type && r.cause_id === t.causeId)) return false;
    this.transactionRows.push({
      id: t.id,
      tenant_id: t.tenantId,
      seq: String(this.transactionRows.length + 1),
      kind: t.type,
      amount: fromMicros(toMicros(t.amount)),
      currency: t.currency,
      cause_id: t.causeId,
      description: t.description,
      balance_after: t.balanceAfter,
      created_at: new Date(),
    });
    return true;
  }

  private withChange(row: Omit<TransactionRow, 'balance_change'> & { tenant_id: string }): TransactionRow {
    const change = this.entries.filter((e) => e.transactionId === row.id && e.account === 'wallet').reduce((sum, e) => sum + toMicros(e.amount), 0n);
    return { ...row, balance_change: fromMicros(change) };
  }
}

export const WALLET_CONFIG = { BILLING_CURRENCY: 'USD', BILLING_LOW_BALANCE_THRESHOLD: '5.00' } as BillingServiceConfig;

/** A WalletsService on an in-memory ledger; `view.push` records the wallets pushed to the gateway's view. */
export function walletsInMemory(config: BillingServiceConfig = WALLET_CONFIG) {
  const store = new InMemoryWallets();
  const view = { push: jest.fn(async () => undefined) } as unknown as BalanceView & { push: jest.Mock };
  const wallets = new WalletsService(store as unknown as WalletsStore, store as unknown as LedgerStore, config, new ListCursors('test-secret'), store.outbox(), view);
  return { store, view, wallets };
}
