import { Injectable, Logger } from '@nestjs/common';
import type { BillingCategory, LlmKeyOwner } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { PricesStore } from '../prices/prices.store';
import { fromMicros, toMicros } from '../wallet/ledger';
import type { WalletRow } from '../wallet/wallets.mapper';
import { WalletsService } from '../wallet/wallets.service';
import { chargeTransition, type ChargeState, type Outcome } from './charge-transitions';
import { ChargesStore, type ChargeRow } from './charges.store';

export interface AcceptedSend {
  tenantId: string;
  messageId: string;
  channel: string;
  category: BillingCategory;
  /** UTC day it was accepted (YYYY-MM-DD): the free allowance counts per calendar month. */
  day: string;
  /** Units it is priced as: an SMS's segments, else 1. */
  quantity: number;
}

/**
 * The money side of each outbound message (CONTRACT.md §16): a paid send holds its price when accepted; `sent`
 * settles the hold into revenue, `failed` releases it (or refunds it, when the failure comes after `sent`). Accepted
 * and status events travel on different topics, so either may come first: the charge row, locked before the wallet
 * on both paths, remembers an outcome that arrived before the send was priced.
 */
@Injectable()
export class ChargesService {
  private readonly logger = new Logger(ChargesService.name);

  constructor(
    private readonly config: BillingServiceConfig,
    private readonly store: ChargesStore,
    private readonly prices: PricesStore,
    private readonly wallets: WalletsService,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.wallets.transaction(work);
  }

  /** One send (see acceptMany: its usage is counted after this). */
  async onAccepted(manager: EntityManager, send: AcceptedSend): Promise<void> {
    await this.acceptMany(manager, [send]);
  }

  /**
   * Prices a batch of accepted sends in a constant number of statements, deciding each exactly as one send at a time
   * would, in order: the first word of a message creates its charge; a paid send holds its price when the wallet
   * covers it after the sends before it (else it is `unfunded`), and an outcome that came first is applied at once.
   * Charge rows are locked in message order, then the wallets in tenant order (both paths lock a charge before its
   * wallet, so neither deadlocks the other). `sends`: every newly metered send of the batch, in order, whose usage the
   * caller counts after this call, in the same transaction (the free allowance counts each of them).
   */
  async acceptMany(manager: EntityManager, sends: readonly AcceptedSend[]): Promise<void> {
    const charges = await this.store.lock(sends, manager);
    const started = new Set<string>();
    const toPrice = sends.filter((send) => {
      const charge = charges.get(send.messageId);
      if (!charge || charge.tenant_id !== send.tenantId || charge.state !== 'awaiting_send' || started.has(send.messageId)) return false;
      started.add(send.messageId);
      return true;
    });
    if (!toPrice.length) return;

    const wallets = await this.wallets.lockMany(manager, toPrice.map((send) => send.tenantId));
    const paid = await this.arePaid(manager, sends, toPrice, wallets);
    const prices = await this.prices.pricesOf(
      toPrice.filter((send) => paid.has(send)).map((send) => ({ plan: wallets.get(send.tenantId)!.plan, category: send.category })),
      manager,
    );
    const ledger = this.wallets.batch(wallets);
    const updates = toPrice.map((send) => {
      const wallet = wallets.get(send.tenantId)!;
      const charge = charges.get(send.messageId)!;
      const unit = paid.has(send) ? prices.get(`${wallet.plan}:${send.category}`) : undefined;
      if (unit && !Number.isInteger(send.quantity)) throw new Error(`${send.messageId}: ${send.quantity} units`);
      const price = unit && send.quantity !== 1 ? { ...unit, unit_price: fromMicros(toMicros(unit.unit_price) * BigInt(send.quantity)) } : unit;

      let state: ChargeState = 'free';
      if (price && toMicros(price.unit_price) > 0n) {
        state = 'unfunded';
        if (price.currency !== wallet.currency) {
          this.logger.warn(`no ${wallet.currency} price for ${wallet.plan}/${send.category}: ${send.messageId} is not charged`);
        } else {
          const hold = ledger.post({
            tenantId: send.tenantId,
            type: 'hold',
            amount: price.unit_price,
            currency: price.currency,
            causeId: send.messageId,
            description: send.quantity === 1 ? `${send.channel} ${send.category} message` : `${send.channel} ${send.category} message, ${send.quantity} segments`,
          });
          if (hold.posted) state = 'held';
        }
      }
      // An outcome that arrived before the send was priced applies now, as onOutcomes would.
      const next = charge.outcome && price ? chargeTransition(state, charge.outcome) : null;
      if (next && price) {
        ledger.post({
          tenantId: send.tenantId,
          type: next.type,
          amount: price.unit_price,
          currency: price.currency,
          causeId: send.messageId,
          description: next.type === 'settlement' ? 'message sent' : 'message failed',
        });
        state = next.state;
      }
      return { send, price, state };
    });
    await this.wallets.writeAndWatch(manager, ledger);
    // `quantity`: the units an invoice line counts (an SMS's segments).
    await this.store.setPriced(
      updates.map(({ send, price, state }) => ({
        messageId: send.messageId,
        channel: send.channel,
        category: send.category,
        price: price?.unit_price ?? null,
        currency: price?.currency ?? null,
        state,
        quantity: send.quantity,
      })),
      manager,
    );
  }

  /**
   * Which of `toPrice` are paid: every send on a plan but `free`; on `free`, a send beyond the monthly allowance,
   * counting the month's usage so far and the batch's sends up to and including it (one statement for the batch).
   */
  private async arePaid(
    manager: EntityManager,
    sends: readonly AcceptedSend[],
    toPrice: readonly AcceptedSend[],
    wallets: ReadonlyMap<string, WalletRow>,
  ): Promise<Set<AcceptedSend>> {
    const onFree = toPrice.filter((send) => wallets.get(send.tenantId)!.plan === 'free');
    const paid = new Set(toPrice.filter((send) => wallets.get(send.tenantId)!.plan !== 'free'));
    if (!onFree.length) return paid;
    const pairs = [...new Map(onFree.map((send) => [`${send.tenantId} ${send.day}`, send])).values()];
    const rows = await this.store.sentInMonthUpTo(pairs, manager);
    const before = new Map(rows.map((row) => [`${row.tenant_id} ${row.day}`, BigInt(row.sent)]));
    const position = new Map(sends.map((send, i) => [send, i]));
    for (const send of onFree) {
      let sent = before.get(`${send.tenantId} ${send.day}`)!;
      for (const earlier of sends.slice(0, position.get(send)! + 1)) {
        if (earlier.tenantId === send.tenantId && earlier.day.slice(0, 7) === send.day.slice(0, 7) && earlier.day <= send.day) sent += BigInt(earlier.quantity);
      }
      if (sent > BigInt(this.config.BILLING_FREE_ALLOWANCE)) paid.add(send);
    }
    return paid;
  }

  /**
   * An LLM call's tokens at the price book's `llm_token` price, charged at once (the tokens are already spent: a hold
   * settled in the same transaction, caused by the usage event). A wallet that cannot cover it is not charged. Answers
   * what the tokens cost (charged or not: the tenant's LLM budget counts them either way), or null when unpriced.
   *
   * A call on the tenant's own key (`key: 'tenant'`, CONTRACT.md §16) is paid to its provider by the tenant: as a free
   * send, it is a `free` charge row without a price and nothing moves on the ledger (no hold, no settlement, no
   * transaction, no invoice line); its cost is still answered, for its LLM budget.
   */
  async onTokens(
    manager: EntityManager,
    usage: { tenantId: string; eventId: string; model: string; tokens: number; key: LlmKeyOwner },
  ): Promise<{ amount: string; currency: string } | null> {
    // a call on the tenant's own key moves no money: it needs the wallet's plan, not its lock
    const wallet = usage.key === 'tenant' ? await this.wallets.read(manager, usage.tenantId) : await this.wallets.lock(manager, usage.tenantId);
    const price = await this.prices.priceOf(wallet.plan, 'llm_token', manager);
    let cost: { amount: string; currency: string } | null = null;
    if (price && price.currency === wallet.currency) {
      const amount = await this.store.amountOf(usage.tokens, price.unit_price, manager);
      if (Number(amount) > 0) cost = { amount, currency: price.currency };
    }
    if (usage.key === 'tenant') {
      await this.store.insertFreeTokens(usage.tenantId, usage.eventId, usage.tokens, manager);
      return cost;
    }
    if (!cost) return null;
    const { amount, currency } = cost;
    const posting = { tenantId: usage.tenantId, amount, currency, causeId: usage.eventId, description: `${usage.tokens} LLM tokens (${usage.model})` };
    const hold = await this.wallets.postAndWatch(manager, { ...posting, type: 'hold' });
    if (!hold.posted) {
      if (hold.reason === 'insufficient_funds') this.logger.warn(`${usage.tenantId} cannot cover ${amount} ${currency} of LLM tokens (${usage.eventId}): not charged`);
      return cost;
    }
    await this.wallets.postAndWatch(manager, { ...posting, type: 'settlement' });
    // Its charge row names the category of the settlement and how many tokens it stands for (what invoices read).
    await this.store.insertSettledTokens(usage.tenantId, { id: usage.eventId, amount, currency, quantity: usage.tokens }, manager);
    return cost;
  }

  /**
   * A voice call's minutes (CONTRACT.md §17) at the price book's `voice_minute` price, charged at once like LLM tokens
   * (the call is over): a hold settled in the same transaction, caused by the call. Unpriced, or a wallet that cannot
   * cover it: not charged (the minutes are metered all the same).
   */
  async onMinutes(manager: EntityManager, call: { tenantId: string; callSid: string; minutes: number }): Promise<void> {
    const wallet = await this.wallets.lock(manager, call.tenantId);
    const price = await this.prices.priceOf(wallet.plan, 'voice_minute', manager);
    if (!price || price.currency !== wallet.currency) return;
    const amount = await this.store.amountOf(call.minutes, price.unit_price, manager);
    if (!(Number(amount) > 0)) return;
    const causeId = `voice-call:${call.callSid}`;
    const posting = { tenantId: call.tenantId, amount, currency: price.currency, causeId, description: `voice call, ${call.minutes} min` };
    const hold = await this.wallets.postAndWatch(manager, { ...posting, type: 'hold' });
    if (!hold.posted) {
      if (hold.reason === 'insufficient_funds') this.logger.warn(`${call.tenantId} cannot cover ${amount} ${price.currency} of voice call ${call.callSid}: not charged`);
      return;
    }
    await this.wallets.postAndWatch(manager, { ...posting, type: 'settlement' });
    await this.store.insertSettledMinutes(call.tenantId, { id: causeId, amount, currency: price.currency, quantity: call.minutes }, manager);
  }

  /** One outcome (see onOutcomes). */
  async onOutcome(manager: EntityManager, tenantId: string, messageId: string, outcome: Outcome): Promise<void> {
    await this.onOutcomes(manager, [{ tenantId, messageId, outcome }]);
  }

  /**
   * Applies a batch of outcomes in a constant number of statements, each exactly as one at a time would, in order:
   * the charge remembers the latest outcome (`failed` is final), and a held or settled charge moves its money
   * (settled, released, refunded). Charges are locked in message order before the wallets (in tenant order), as on
   * the accepting path; a charge another tenant's message made is left alone.
   */
  async onOutcomes(manager: EntityManager, outcomes: readonly { tenantId: string; messageId: string; outcome: Outcome }[]): Promise<void> {
    const charges = await this.store.lock(outcomes, manager);
    const mine = outcomes.filter((o) => charges.get(o.messageId)?.tenant_id === o.tenantId);
    if (!mine.length) return;
    // Only a held or settled charge moves money, and applying outcomes only moves a charge on from those.
    const moving = mine.filter((o) => ['held', 'settled'].includes(charges.get(o.messageId)!.state));
    const wallets = await this.wallets.lockMany(manager, moving.map((o) => o.tenantId));
    const ledger = this.wallets.batch(wallets);
    const touched = new Map<string, ChargeRow>();
    for (const { messageId, outcome } of mine) {
      const charge = touched.get(messageId) ?? { ...charges.get(messageId)! };
      touched.set(messageId, charge);
      // A failure is final: a late `delivered` after `failed` does not bring the charge back.
      charge.outcome = charge.outcome === 'failed' ? 'failed' : outcome;
      const next = chargeTransition(charge.state, charge.outcome);
      if (!next || !charge.price || !charge.currency) continue;
      ledger.post({
        tenantId: charge.tenant_id,
        type: next.type,
        amount: charge.price,
        currency: charge.currency,
        causeId: charge.message_id,
        description: next.type === 'settlement' ? 'message sent' : 'message failed',
      });
      charge.state = next.state;
    }
    await this.wallets.writeAndWatch(manager, ledger);
    await this.store.setOutcomes([...touched.values()], manager);
  }
}
