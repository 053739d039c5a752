import { newId, type LedgerTransactionType } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import type { LedgerEntryInsert, LedgerStore } from './ledger.store';

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
export async function post(ledger: LedgerStore, p: Posting, tx: EntityManager): Promise<PostResult> {
  const legs = legsOf(p);
  const walletChange = legs.to === 'wallet' ? p.amount : legs.from === 'wallet' ? `-${p.amount}` : '0';
  const covered = await ledger.covers(p.tenantId, walletChange, tx);
  if (covered === null) throw new Error(`no wallet for ${p.tenantId}: lock it first`);
  if (!covered) return { posted: false, reason: 'insufficient_funds' };

  const id = newId('txn');
  const transaction = { id, type: p.type, amount: p.amount, currency: p.currency, causeId: p.causeId, description: p.description ?? null };
  if (!(await ledger.insert(p.tenantId, transaction, walletChange, tx))) return { posted: false, reason: 'duplicate' };
  await ledger.insertLegs(p.tenantId, id, legs, p.amount, p.currency, tx);
  return { posted: true, id };
}

const MICROS = 1_000_000n;

/** A decimal string of at most six places (the ledger's scale) in millionths, exactly. */
export function toMicros(amount: string): bigint {
  const match = /^(-?)(\d*)(?:\.(\d{0,6}))?$/.exec(amount.trim());
  if (!match || (!match[2] && !match[3])) throw new Error(`not an amount of at most six decimals: ${amount}`);
  const micros = BigInt(match[2] || '0') * MICROS + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] ? -micros : micros;
}

/** Millionths as the ledger writes them (`numeric(20, 6)` as text: `4.970000`). */
export function fromMicros(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / MICROS}.${(abs % MICROS).toString().padStart(6, '0')}`;
}

/** What the wallets locked for a batch start from: each balance, and its low-balance watch. */
export interface LockedWallet {
  tenant_id: string;
  currency: string;
  balance: string;
  low_balance_threshold: string;
  below_threshold: boolean;
}

/** A posting of a batch that went in, with the wallet balance it left (for the low-balance watch). */
export interface BatchedPosting extends Posting {
  id: string;
  balanceAfter: bigint;
}

/**
 * Many postings on wallets locked by the caller's transaction, written with a constant number of statements: `post`
 * decides each one at once, in order, against the balance the postings before it left (exactly what `post` one at a
 * time would decide), and `write` inserts the transactions and their entries in two statements, in that order.
 */
export class LedgerBatch {
  private readonly balances = new Map<string, bigint>();
  readonly posted: BatchedPosting[] = [];

  constructor(readonly wallets: ReadonlyMap<string, LockedWallet>) {
    for (const [tenantId, wallet] of wallets) this.balances.set(tenantId, toMicros(wallet.balance));
  }

  post(p: Posting): PostResult {
    const balance = this.balances.get(p.tenantId);
    if (balance === undefined) throw new Error(`no wallet for ${p.tenantId}: lock it first`);
    const legs = legsOf(p);
    const amount = toMicros(p.amount);
    const change = legs.to === 'wallet' ? amount : legs.from === 'wallet' ? -amount : 0n;
    if (balance + change < 0n) return { posted: false, reason: 'insufficient_funds' };
    const id = newId('txn');
    this.balances.set(p.tenantId, balance + change);
    this.posted.push({ ...p, id, balanceAfter: balance + change });
    return { posted: true, id };
  }

  /**
   * Writes what was posted. Each posting of a batch is a new cause (a charge posts each transition once, under its
   * lock), so a duplicate here means the ledger and the charges disagree: the whole batch fails rather than leave
   * balances decided on a posting that did not happen.
   */
  async write(ledger: LedgerStore, tx: EntityManager): Promise<void> {
    if (!this.posted.length) return;
    const landed = await ledger.insertMany(
      this.posted.map((p) => ({ ...p, description: p.description ?? null, balanceAfter: fromMicros(p.balanceAfter) })),
      tx,
    );
    if (landed.size !== this.posted.length) {
      const twice = this.posted.filter((p) => !landed.has(p.id)).map((p) => `${p.type} ${p.causeId}`);
      throw new Error(`already posted: ${twice.join(', ')}`);
    }
    // Debit leg then credit leg, posting by posting: the trigger moves each wallet as `post` would have.
    const entries = this.posted.flatMap((p): LedgerEntryInsert[] => {
      const legs = legsOf(p);
      return [
        { transactionId: p.id, tenantId: p.tenantId, account: legs.from, amount: `-${p.amount}`, currency: p.currency },
        { transactionId: p.id, tenantId: p.tenantId, account: legs.to, amount: p.amount, currency: p.currency },
      ];
    });
    await ledger.insertEntries(entries, tx);
  }
}

function legsOf(p: Posting): { from: LedgerAccount; to: LedgerAccount } {
  if (p.type !== 'adjustment') return LEGS[p.type];
  return p.credit ? { from: 'adjustments', to: 'wallet' } : { from: 'wallet', to: 'adjustments' };
}
