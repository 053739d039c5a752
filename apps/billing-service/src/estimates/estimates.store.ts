import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillingCategory } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** Reads behind a cost estimate (nothing is written or held). */
@Injectable()
export class EstimatesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The category billing knows for the tenant's template, or null. */
  async templateCategory(tenantId: string, template: { name: string; language: string }): Promise<BillingCategory | null> {
    const [row] = (await this.db.query(`SELECT category FROM template_categories WHERE tenant_id = $1 AND name = $2 AND language = $3`, [
      tenantId,
      template.name,
      template.language,
    ])) as { category: BillingCategory }[];
    return row?.category ?? null;
  }

  /** `quantity` units at `unitPrice` exactly (numeric(20, 6)), and whether `balance` covers it (decimal strings). */
  async cost(unitPrice: string, quantity: number, balance: string): Promise<{ amount: string; covered: boolean }> {
    const [row] = (await this.db.query(`SELECT ($1::numeric * $2::bigint)::numeric(20, 6)::text AS amount, $3::numeric >= $1::numeric * $2::bigint AS covered`, [
      unitPrice,
      quantity,
      balance,
    ])) as { amount: string; covered: boolean }[];
    return row;
  }
}
