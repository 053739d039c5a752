import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MonthUsageLineRecord } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** Usage that is not a message: it never uses up the free allowance (CONTRACT.md §16; docs/guides/billing.md). */
export const NOT_MESSAGES = ['voice_minute', 'llm_token'] as const;

/** Messages among usage lines, counted as metering counts them against the free allowance. */
export const messagesIn = (lines: readonly MonthUsageLineRecord[]): number =>
  lines.filter((line) => !(NOT_MESSAGES as readonly string[]).includes(line.category)).reduce((sum, line) => sum + line.quantity, 0);

/** Reads of this calendar month's (UTC) metered usage. */
@Injectable()
export class MonthUsageStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Usage per channel and category since the month's start, messages first then by channel and category. */
  async lines(tenantId: string): Promise<MonthUsageLineRecord[]> {
    return (await this.db.query(
      `SELECT channel, category, sum(quantity)::float8 AS quantity FROM usage_daily
        WHERE tenant_id = $1 AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date
        GROUP BY channel, category ORDER BY category = ANY($2::text[]), channel, category`,
      [tenantId, NOT_MESSAGES],
    )) as MonthUsageLineRecord[];
  }
}
