import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { ChargeState, Outcome } from './charge-transitions';

/** A message's charge: what it costs and where its money is. */
export interface ChargeRow {
  message_id: string;
  tenant_id: string;
  price: string | null;
  currency: string | null;
  state: ChargeState;
  outcome: Outcome | null;
}

/** What pricing a send decided for its charge. */
export interface PricedCharge {
  messageId: string;
  channel: string;
  category: string;
  /** Decimal string; null when the send is not priced. */
  price: string | null;
  currency: string | null;
  state: ChargeState;
  /** Units an invoice line counts (an SMS's segments). */
  quantity: number;
}

/** A usage charged at once (LLM tokens, voice minutes): settled in the transaction that records it. */
export interface SettledCharge {
  /** The usage event's id, or the call's cause id. */
  id: string;
  amount: string;
  currency: string;
  quantity: number;
}

/** A status to check against its message's charge. */
export interface OutcomeCheck {
  tenantId: string;
  messageId: string;
  outcome: Outcome;
}

/**
 * SQL of the charges (one row per metered message or charged usage). Methods of the money path run in the caller's
 * transaction (`tx` last), where the charges are locked before the wallets.
 */
@Injectable()
export class ChargesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The charge rows of a batch's messages, created by the first event naming each (`awaiting_send`, with that event's
   * tenant) and locked in message order until `tx` ends; by message id.
   */
  async lock(sends: readonly { tenantId: string; messageId: string }[], tx: EntityManager): Promise<Map<string, ChargeRow>> {
    const first = [...new Map([...sends].reverse().map((send) => [send.messageId, send])).values()].sort((a, b) => (a.messageId < b.messageId ? -1 : 1));
    if (!first.length) return new Map();
    const ids = first.map((send) => send.messageId);
    await tx.query(
      `INSERT INTO charges (message_id, tenant_id, state)
       SELECT message_id, tenant_id, 'awaiting_send' FROM unnest($1::text[], $2::text[]) AS x(message_id, tenant_id) ORDER BY message_id
       ON CONFLICT (message_id) DO NOTHING`,
      [ids, first.map((send) => send.tenantId)],
    );
    const rows = (await tx.query(`SELECT * FROM charges WHERE message_id = ANY($1) ORDER BY message_id FOR UPDATE`, [ids])) as ChargeRow[];
    return new Map(rows.map((row) => [row.message_id, row]));
  }

  /** Writes what pricing decided for many locked charges in one statement. */
  async setPriced(charges: readonly PricedCharge[], tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE charges c SET channel = x.channel, category = x.category, price = x.price, currency = x.currency, state = x.state, quantity = x.quantity, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::bigint[]) AS x(message_id, channel, category, price, currency, state, quantity)
        WHERE c.message_id = x.message_id`,
      [
        charges.map((c) => c.messageId),
        charges.map((c) => c.channel),
        charges.map((c) => c.category),
        charges.map((c) => c.price),
        charges.map((c) => c.currency),
        charges.map((c) => c.state),
        charges.map((c) => c.quantity),
      ],
    );
  }

  /** Writes the outcome and state of many locked charges in one statement. */
  async setOutcomes(charges: readonly ChargeRow[], tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE charges c SET outcome = x.outcome, state = x.state, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS x(message_id, outcome, state) WHERE c.message_id = x.message_id`,
      [charges.map((c) => c.message_id), charges.map((c) => c.outcome), charges.map((c) => c.state)],
    );
  }

  /**
   * Messages each tenant sent in the month of `day` up to and including that day, counted as the free allowance counts
   * them (not voice minutes nor LLM tokens), for many tenant and day pairs in one statement.
   */
  async sentInMonthUpTo(pairs: readonly { tenantId: string; day: string }[], tx: EntityManager): Promise<{ tenant_id: string; day: string; sent: string }[]> {
    return (await tx.query(
      `SELECT x.tenant_id, x.day, (SELECT coalesce(sum(quantity), 0) FROM usage_daily u
                                    WHERE u.tenant_id = x.tenant_id AND u.day >= date_trunc('month', x.day::date) AND u.day <= x.day::date
                                      AND u.category NOT IN ('voice_minute', 'llm_token'))::bigint::text AS sent
         FROM unnest($1::text[], $2::text[]) AS x(tenant_id, day)`,
      [pairs.map((p) => p.tenantId), pairs.map((p) => p.day)],
    )) as { tenant_id: string; day: string; sent: string }[];
  }

  /** `quantity` units at `unitPrice`, rounded to the ledger's six places (decimal strings, exact). */
  async amountOf(quantity: number, unitPrice: string, tx: EntityManager): Promise<string> {
    const [{ amount }] = (await tx.query(`SELECT round($1::numeric * $2::numeric, 6)::text AS amount`, [quantity, unitPrice])) as { amount: string }[];
    return amount;
  }

  /** An LLM call on the tenant's own key: a `free` charge without a price (once per usage event). */
  async insertFreeTokens(tenantId: string, eventId: string, tokens: number, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO charges (message_id, tenant_id, channel, category, price, currency, state, quantity)
       VALUES ($1, $2, 'llm', 'llm_token', NULL, NULL, 'free', $3) ON CONFLICT (message_id) DO NOTHING`,
      [eventId, tenantId, tokens],
    );
  }

  /** LLM tokens charged and settled: the charge names the category and how many tokens it stands for (what invoices read). */
  async insertSettledTokens(tenantId: string, charge: SettledCharge, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO charges (message_id, tenant_id, channel, category, price, currency, state, outcome, quantity)
       VALUES ($1, $2, 'llm', 'llm_token', $3::numeric, $4, 'settled', 'sent', $5) ON CONFLICT (message_id) DO NOTHING`,
      [charge.id, tenantId, charge.amount, charge.currency, charge.quantity],
    );
  }

  /** A voice call's minutes charged and settled. */
  async insertSettledMinutes(tenantId: string, charge: SettledCharge, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO charges (message_id, tenant_id, channel, category, price, currency, state, outcome, quantity)
       VALUES ($1, $2, 'voice', 'voice_minute', $3::numeric, $4, 'settled', 'sent', $5) ON CONFLICT (message_id) DO NOTHING`,
      [charge.id, tenantId, charge.amount, charge.currency, charge.quantity],
    );
  }

  /**
   * Which checks are settled for good, in one unlocked statement: the charge (of that tenant) has the outcome recorded,
   * or `failed`, and no money waits on it (not `held`, not a `settled` charge a failure must refund). By index.
   */
  async settledOutcomes(checks: readonly OutcomeCheck[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.i FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS x(message_id, tenant_id, outcome, i)
       JOIN charges c ON c.message_id = x.message_id AND c.tenant_id = x.tenant_id
       WHERE (c.outcome = 'failed' OR c.outcome = x.outcome) AND c.state <> 'held' AND NOT (c.state = 'settled' AND c.outcome = 'failed')`,
      [checks.map((c) => c.messageId), checks.map((c) => c.tenantId), checks.map((c) => c.outcome)],
    )) as { i: string }[];
    const hits = new Set(rows.map((r) => Number(r.i) - 1));
    return checks.map((_, i) => hits.has(i));
  }
}
