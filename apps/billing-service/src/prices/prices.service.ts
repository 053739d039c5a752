import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SetPricesBody, type BillingCategory, type BillingPlan, type PriceRecord } from '@parley/contracts';
import { validateDto } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { BalanceView } from '../balance-view/balance-view';

interface PriceRow {
  plan: BillingPlan;
  category: BillingCategory;
  unit_price: string;
  currency: string;
  updated_at: Date;
}

const toPriceRecord = (row: PriceRow): PriceRecord => ({ ...row, updated_at: row.updated_at.toISOString() });

/** The price book (CONTRACT.md §16): a unit price per plan and category, in an explicit currency. */
@Injectable()
export class PricesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly view: BalanceView,
  ) {}

  async list(): Promise<{ data: PriceRecord[] }> {
    const rows = (await this.db.query(`SELECT * FROM prices ORDER BY plan, category`)) as PriceRow[];
    return { data: rows.map(toPriceRecord) };
  }

  /** Sets the given lines (an operator's `PUT /admin/v1/prices`); lines not given keep their price. */
  async set(rawBody: unknown): Promise<{ data: PriceRecord[] }> {
    const body = await validateDto(SetPricesBody, rawBody);
    await this.db.transaction(async (manager) => {
      for (const line of body.prices) {
        await manager.query(
          `INSERT INTO prices (plan, category, unit_price, currency) VALUES ($1, $2, $3::numeric, $4)
           ON CONFLICT (plan, category) DO UPDATE SET unit_price = EXCLUDED.unit_price, currency = EXCLUDED.currency, updated_at = now()`,
          [line.plan, line.category, line.unit_price, line.currency],
        );
      }
    });
    await this.view.pushPrices();
    return this.list();
  }

  /** The prices of many plan and category pairs in one statement, by `plan:category` (a pair without a line: absent). */
  async pricesOf(manager: EntityManager, pairs: readonly { plan: BillingPlan; category: BillingCategory }[]): Promise<Map<string, { unit_price: string; currency: string }>> {
    if (!pairs.length) return new Map();
    const rows = (await manager.query(
      `SELECT p.plan, p.category, p.unit_price, p.currency FROM prices p JOIN unnest($1::text[], $2::text[]) AS x(plan, category) ON p.plan = x.plan AND p.category = x.category`,
      [pairs.map((x) => x.plan), pairs.map((x) => x.category)],
    )) as PriceRow[];
    return new Map(rows.map((row) => [`${row.plan}:${row.category}`, { unit_price: row.unit_price, currency: row.currency }]));
  }

  async priceOf(manager: EntityManager, plan: BillingPlan, category: BillingCategory): Promise<{ unit_price: string; currency: string } | null> {
    const [row] = (await manager.query(`SELECT unit_price, currency FROM prices WHERE plan = $1 AND category = $2`, [plan, category])) as PriceRow[];
    return row ?? null;
  }
}
