import { Injectable } from '@nestjs/common';
import { Topics, newId, type LlmSpendData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { EntityManager } from 'typeorm';
import { Outbox } from '../outbox/outbox';

/**
 * Each tenant's LLM spend per calendar month (UTC), from the cost of every metered call, and `llm.spend` with the new
 * running total, queued in the same transaction: the responder holds the tenant's LLM budget against it (CONTRACT.md
 * §16) without asking billing per message.
 */
@Injectable()
export class LlmSpend {
  constructor(private readonly outbox: Outbox) {}

  /** Adds one call's cost to the month of `at` (inside the caller's metering transaction, once per usage event). */
  async add(manager: EntityManager, tenantId: string, at: string, cost: { amount: string; currency: string }): Promise<void> {
    const [row] = (await manager.query(
      `INSERT INTO llm_spend (tenant_id, month, currency, spend) VALUES ($1, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date, $3, $4::numeric)
       ON CONFLICT (tenant_id, month) DO UPDATE SET spend = llm_spend.spend + EXCLUDED.spend, currency = EXCLUDED.currency, updated_at = now()
       RETURNING to_char(month, 'YYYY-MM') AS month, spend::text AS spend, currency`,
      [tenantId, at, cost.currency, cost.amount],
    )) as { month: string; spend: string; currency: string }[];
    const data: LlmSpendData = { tenant_id: tenantId, month: row.month, spend: row.spend, currency: row.currency, at: new Date().toISOString() };
    await this.outbox.add(manager, EventPublisher.envelope(Topics.LlmSpend, tenantId, data, newId('evt')), tenantId);
  }
}
