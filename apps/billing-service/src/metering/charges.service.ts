import { Injectable, Logger } from '@nestjs/common';
import type { BillingCategory } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { PricesService } from '../prices/prices.service';
import { WalletsService } from '../wallet/wallets.service';
import { chargeTransition, type ChargeState, type Outcome } from './charge-transitions';


interface ChargeRow {
  message_id: string;
  tenant_id: string;
  price: string | null;
  currency: string | null;
  state: ChargeState;
  outcome: Outcome | null;
}

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
    private readonly prices: PricesService,
    private readonly wallets: WalletsService,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.wallets.transaction(work);
  }

  async onAccepted(manager: EntityManager, send: AcceptedSend): Promise<void> {
    const charge = await this.lockCharge(manager, send.tenantId, send.messageId);
    if (!charge || charge.state !== 'awaiting_send') return;
    const wallet = await this.wallets.lock(manager, send.tenantId);
    const unit = (await this.isPaid(manager, send, wallet.plan)) ? await this.prices.priceOf(manager, wallet.plan, send.category) : null;
    const price = unit && send.quantity !== 1 ? { ...unit, unit_price: await this.times(manager, unit.unit_price, send.quantity) } : unit;

    let state: ChargeState = 'free';
    if (price && Number(price.unit_price) > 0) {
      state = 'unfunded';
      if (price.currency !== wallet.currency) {
        this.logger.warn(`no ${wallet.currency} price for ${wallet.plan}/${send.category}: ${send.messageId} is not charged`);
      } else {
        const hold = await this.wallets.postAndWatch(manager, {
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
    // `quantity`: the units an invoice line counts (an SMS's segments).
    await manager.query(`UPDATE charges SET channel = $2, category = $3, price = $4::numeric, currency = $5, state = $6, quantity = $7, updated_at = now() WHERE message_id = $1`, [
      send.messageId,
      send.channel,
      send.category,
      price?.unit_price ?? null,
      price?.currency ?? null,
      state,
      send.quantity,
    ]);
    if (charge.outcome) await this.apply(manager, { ...charge, state, price: price?.unit_price ?? null, currency: price?.currency ?? null }, charge.outcome);
  }

  /** `price` × `quantity` in decimal (never floats), at the ledger's six decimals. */
  private async times(manager: EntityManager, price: string, quantity: number): Promise<string> {
    const [{ amount }] = (await manager.query(`SELECT round($1::numeric * $2::numeric, 6)::text AS amount`, [price, quantity])) as { amount: string }[];
    return amount;
  }

  /**
   * An LLM call's tokens at the price book's `llm_token` price, charged at once (the tokens are already spent: a hold
   * settled in the same transaction, caused by the usage event). A wallet that cannot cover it is not charged. Answers
   * what the tokens cost (charged or not: the tenant's LLM budget counts them either way), or null when unpriced.
   */
  async onTokens(manager: EntityManager, usage: { tenantId: string; eventId: string; model: string; tokens: number }): Promise<{ amount: string; currency: string } | null> {
    const wallet = await this.wallets.lock(manager, usage.tenantId);
    const price = await this.prices.priceOf(manager, wallet.plan, 'llm_token');
    if (!price || price.currency !== wallet.currency) return null;
    const [{ amount }] = (await manager.query(`SELECT round($1::numeric * $2::numeric, 6)::text AS amount`, [usage.tokens, price.unit_price])) as { amount: string }[];
    if (!(Number(amount) > 0)) return null;
    const cost = { amount, currency: price.currency };
    const posting = { tenantId: usage.tenantId, amount, currency: price.currency, causeId: usage.eventId, description: `${usage.tokens} LLM tokens (${usage.model})` };
    const hold = await this.wallets.postAndWatch(manager, { ...posting, type: 'hold' });
    if (!hold.posted) {
      if (hold.reason === 'insufficient_funds') this.logger.warn(`${usage.tenantId} cannot cover ${amount} ${price.currency} of LLM tokens (${usage.eventId}): not charged`);
      return cost;
    }
    await this.wallets.postAndWatch(manager, { ...posting, type: 'settlement' });
    // Its charge row names the category of the settlement and how many tokens it stands for (what invoices read).
    await manager.query(
      `INSERT INTO charges (message_id, tenant_id, channel, category, price, currency, state, outcome, quantity)
       VALUES ($1, $2, 'llm', 'llm_token', $3::numeric, $4, 'settled', 'sent', $5) ON CONFLICT (message_id) DO NOTHING`,
      [usage.eventId, usage.tenantId, amount, price.currency, usage.tokens],
    );
    return cost;
  }

  /**
   * A voice call's minutes (CONTRACT.md §17) at the price book's `voice_minute` price, charged at once like LLM tokens
   * (the call is over): a hold settled in the same transaction, caused by the call. Unpriced, or a wallet that cannot
   * cover it: not charged (the minutes are metered all the same).
   */
  async onMinutes(manager: EntityManager, call: { tenantId: string; callSid: string; minutes: number }): Promise<void> {
    const wallet = await this.wallets.lock(manager, call.tenantId);
    const price = await this.prices.priceOf(manager, wallet.plan, 'voice_minute');
    if (!price || price.currency !== wallet.currency) return;
    const [{ amount }] = (await manager.query(`SELECT round($1::numeric * $2::numeric, 6)::text AS amount`, [call.minutes, price.unit_price])) as { amount: string }[];
    if (!(Number(amount) > 0)) return;
    const causeId = `voice-call:${call.callSid}`;
    const posting = { tenantId: call.tenantId, amount, currency: price.currency, causeId, description: `voice call, ${call.minutes} min` };
    const hold = await this.wallets.postAndWatch(manager, { ...posting, type: 'hold' });
    if (!hold.posted) {
      if (hold.reason === 'insufficient_funds') this.logger.warn(`${call.tenantId} cannot cover ${amount} ${price.currency} of voice call ${call.callSid}: not charged`);
      return;
    }
    await this.wallets.postAndWatch(manager, { ...posting, type: 'settlement' });
    await manager.query(
      `INSERT INTO charges (message_id, tenant_id, channel, category, price, currency, state, outcome, quantity)
       VALUES ($1, $2, 'voice', 'voice_minute', $3::numeric, $4, 'settled', 'sent', $5) ON CONFLICT (message_id) DO NOTHING`,
      [causeId, call.tenantId, amount, price.currency, call.minutes],
    );
  }

  async onOutcome(manager: EntityManager, tenantId: string, messageId: string, outcome: Outcome): Promise<void> {
    const charge = await this.lockCharge(manager, tenantId, messageId);
    if (!charge) return;
    // A failure is final: a late `delivered` after `failed` does not bring the charge back.
    const latest: Outcome = charge.outcome === 'failed' ? 'failed' : outcome;
    await manager.query(`UPDATE charges SET outcome = $2, updated_at = now() WHERE message_id = $1`, [messageId, latest]);
    if (charge.state === 'held' || charge.state === 'settled') {
      await this.wallets.lock(manager, tenantId);
      await this.apply(manager, charge, latest);
    }
  }

  private async apply(manager: EntityManager, charge: ChargeRow, outcome: Outcome): Promise<void> {
    const next = chargeTransition(charge.state, outcome);
    if (!next || !charge.price || !charge.currency) return;
    await this.wallets.postAndWatch(manager, {
      tenantId: charge.tenant_id,
      type: next.type,
      amount: charge.price,
      currency: charge.currency,
      causeId: charge.message_id,
      description: next.type === 'settlement' ? 'message sent' : 'message failed',
    });
    await manager.query(`UPDATE charges SET state = $2, updated_at = now() WHERE message_id = $1`, [charge.message_id, next.state]);
  }

  /** A send is paid on any plan but `free`, and on `free` beyond the monthly allowance (this send counted). */
  private async isPaid(manager: EntityManager, send: AcceptedSend, plan: string): Promise<boolean> {
    if (plan !== 'free') return true;
    const [row] = (await manager.query(
      `SELECT coalesce(sum(quantity), 0)::bigint AS sent FROM usage_daily
        WHERE tenant_id = $1 AND day >= date_trunc('month', $2::date) AND day <= $2::date AND category NOT IN ('voice_minute', 'llm_token')`,
      [send.tenantId, send.day],
    )) as { sent: string }[];
    return Number(row.sent) > this.config.BILLING_FREE_ALLOWANCE;
  }

  /** The message's charge row, created if this is the first word of it, locked; null when it is another tenant's. */
  private async lockCharge(manager: EntityManager, tenantId: string, messageId: string): Promise<ChargeRow | null> {
    await manager.query(`INSERT INTO charges (message_id, tenant_id, state) VALUES ($1, $2, 'awaiting_send') ON CONFLICT (message_id) DO NOTHING`, [
      messageId,
      tenantId,
    ]);
    const [row] = (await manager.query(`SELECT * FROM charges WHERE message_id = $1 FOR UPDATE`, [messageId])) as ChargeRow[];
    return row.tenant_id === tenantId ? row : null;
  }
}
