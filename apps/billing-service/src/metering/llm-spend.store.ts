import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A tenant's LLM spend of one month (YYYY-MM), as a decimal string. */
export interface LlmSpendRow {
  month: string;
  spend: string;
  currency: string;
}

/** SQL of each tenant's LLM spend per calendar month (UTC). */
@Injectable()
export class LlmSpendStore {
  /** Adds a cost to the month of `at` in `tx`; the month's new total. */
  async add(tenantId: string, at: string, cost: { amount: string; currency: string }, tx: EntityManager): Promise<LlmSpendRow> {
    const [row] = (await tx.query(
      `INSERT INTO llm_spend (tenant_id, month, currency, spend) VALUES ($1, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date, $3, $4::numeric)
       ON CONFLICT (tenant_id, month) DO UPDATE SET spend = llm_spend.spend + EXCLUDED.spend, currency = EXCLUDED.currency, updated_at = now()
       RETURNING to_char(month, 'YYYY-MM') AS month, spend::text AS spend, currency`,
      [tenantId, at, cost.currency, cost.amount],
    )) as LlmSpendRow[];
    return row;
  }
}
