import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillingCategory, UsageDayRecord } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** Units to add to a tenant's usage of a UTC day, channel and category. */
export interface UsageIncrement {
  tenantId: string;
  /** YYYY-MM-DD */
  day: string;
  channel: string;
  category: string;
  quantity: number;
}

/** A template send's key in the template categories. */
export interface TemplateKey {
  tenantId: string;
  name: string;
  language: string;
}

export interface TemplateCategoryRow {
  tenant_id: string;
  name: string;
  language: string;
  category: BillingCategory;
}

/** SQL of metering: the events counted once, the daily usage, the templates' categories. */
@Injectable()
export class MeteringStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records the event id as processed in `tx`; false when it was already. */
  async firstTime(eventId: string, tx: EntityManager): Promise<boolean> {
    const rows = (await tx.query(`INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING event_id`, [eventId])) as unknown[];
    return rows.length > 0;
  }

  /** Records many event ids as processed in `tx`, in id order (so two batches do not deadlock); the ids seen for the first time. */
  async firstTimes(eventIds: readonly string[], tx: EntityManager): Promise<Set<string>> {
    const ids = [...new Set(eventIds)].sort();
    const rows = (await tx.query(
      `INSERT INTO processed_events (event_id) SELECT id FROM unnest($1::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING RETURNING event_id`,
      [ids],
    )) as { event_id: string }[];
    return new Set(rows.map((row) => row.event_id));
  }

  /** Adds to many usage rows in one statement, in the given order (callers give key order, so batches do not deadlock). */
  async addUsage(rows: readonly UsageIncrement[], tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity)
       SELECT tenant_id, day, channel, category, quantity FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::numeric[]) WITH ORDINALITY AS x(tenant_id, day, channel, category, quantity, n) ORDER BY n
       ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
      [rows.map((r) => r.tenantId), rows.map((r) => r.day), rows.map((r) => r.channel), rows.map((r) => r.category), rows.map((r) => r.quantity)],
    );
  }

  /** Adds an LLM call's tokens to the tenant's `llm`/`llm_token` usage of `day`. */
  async addTokens(tenantId: string, day: string, tokens: number, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity) VALUES ($1, $2, 'llm', 'llm_token', $3)
       ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
      [tenantId, day, tokens],
    );
  }

  /** The tenant's usage per UTC day, channel and category over the last `days` days, oldest first. */
  usageByDay(tenantId: string, days: number): Promise<UsageDayRecord[]> {
    return this.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, channel, category, quantity::float8 AS quantity FROM usage_daily
        WHERE tenant_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int ORDER BY day, channel, category`,
      [tenantId, days],
    ) as Promise<UsageDayRecord[]>;
  }

  async setTemplateCategory(tenantId: string, template: { name: string; language: string }, category: string): Promise<void> {
    await this.db.query(
      `INSERT INTO template_categories (tenant_id, name, language, category) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, name, language) DO UPDATE SET category = EXCLUDED.category`,
      [tenantId, template.name, template.language, category],
    );
  }

  /** The known categories of many tenants' templates, in one statement (a template not known: no row). */
  templateCategories(templates: readonly TemplateKey[], tx: EntityManager): Promise<TemplateCategoryRow[]> {
    return tx.query(
      `SELECT DISTINCT t.tenant_id, t.name, t.language, t.category FROM template_categories t
         JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(tenant_id, name, language) ON t.tenant_id = x.tenant_id AND t.name = x.name AND t.language = x.language`,
      [templates.map((t) => t.tenantId), templates.map((t) => t.name), templates.map((t) => t.language)],
    ) as Promise<TemplateCategoryRow[]>;
  }
}
