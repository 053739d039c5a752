import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillingCategory, BillingPlan } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** A line of the price book. */
export interface PriceRow {
  plan: BillingPlan;
  category: BillingCategory;
  unit_price: string;
  currency: string;
  updated_at: Date;
}

/** What a send of a plan and category costs a unit (numeric as a decimal string). */
export interface UnitPrice {
  unit_price: string;
  currency: string;
}

/** A line as an operator sets it. */
export interface PriceLine {
  plan: BillingPlan;
  category: BillingCategory;
  unit_price: string;
  currency: string;
}

/** SQL of the price book (one for every tenant: nothing here is a tenant's). */
@Injectable()
export class PricesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  list(): Promise<PriceRow[]> {
    return this.db.query(`SELECT * FROM prices ORDER BY plan, category`) as Promise<PriceRow[]>;
  }

  /** Sets each line in one transaction; lines not given keep their price. */
  async upsert(lines: readonly PriceLine[]): Promise<void> {
    await this.db.transaction(async (manager) => {
      for (const line of lines) {
        await manager.query(
          `INSERT INTO prices (plan, category, unit_price, currency) VALUES ($1, $2, $3::numeric, $4)
           ON CONFLICT (plan, category) DO UPDATE SET unit_price = EXCLUDED.unit_price, currency = EXCLUDED.currency, updated_at = now()`,
          [line.plan, line.category, line.unit_price, line.currency],
        );
      }
    });
  }

  /** The prices of many plan and category pairs in one statement, by `plan:category` (a pair without a line: absent). */
  async pricesOf(pairs: readonly { plan: BillingPlan; category: BillingCategory }[], tx: EntityManager): Promise<Map<string, UnitPrice>> {
    if (!pairs.length) return new Map();
    const rows = (await tx.query(
      `SELECT p.plan, p.category, p.unit_price, p.currency FROM prices p JOIN unnest($1::text[], $2::text[]) AS x(plan, category) ON p.plan = x.plan AND p.category = x.category`,
      [pairs.map((x) => x.plan), pairs.map((x) => x.category)],
    )) as PriceRow[];
    return new Map(rows.map((row) => [`${row.plan}:${row.category}`, { unit_price: row.unit_price, currency: row.currency }]));
  }

  /** One pair's price, or null; inside `tx` when given. */
  async priceOf(plan: BillingPlan, category: BillingCategory, tx: EntityManager = this.db.manager): Promise<UnitPrice | null> {
    const [row] = (await tx.query(`SELECT unit_price, currency FROM prices WHERE plan = $1 AND category = $2`, [plan, category])) as UnitPrice[];
    return row ?? null;
  }
}
