import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LlmSettingsEntity } from './llm-settings.entity';

/** Tenants' own LLM settings (the key encrypted) and billing's latest word on their LLM spend; the tenant id first. */
@Injectable()
export class LlmSettingsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async put(settings: LlmSettingsEntity): Promise<void> {
    await this.db.getRepository(LlmSettingsEntity).upsert(settings, ['tenantId']);
  }

  find(tenantId: string): Promise<LlmSettingsEntity | null> {
    return this.db.getRepository(LlmSettingsEntity).findOneBy({ tenantId });
  }

  async delete(tenantId: string): Promise<boolean> {
    return ((await this.db.getRepository(LlmSettingsEntity).delete({ tenantId })).affected ?? 0) > 0;
  }

  /** A later month replaces an earlier one, and within a month the running total only grows. */
  async recordSpend(tenantId: string, spend: { month: string; amount: string; currency: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO llm_spend (tenant_id, month, spend, currency) VALUES ($1, $2, $3::numeric, $4)
       ON CONFLICT (tenant_id) DO UPDATE SET month = EXCLUDED.month, spend = EXCLUDED.spend, currency = EXCLUDED.currency, updated_at = now()
        WHERE EXCLUDED.month > llm_spend.month OR (EXCLUDED.month = llm_spend.month AND EXCLUDED.spend > llm_spend.spend)`,
      [tenantId, spend.month, spend.amount, spend.currency],
    );
  }

  /** Whether the spend of `month` has reached the tenant's budget; false without settings. */
  async overBudget(tenantId: string, month: string): Promise<boolean> {
    const [row] = (await this.db.query(
      `SELECT coalesce((SELECT spend FROM llm_spend WHERE tenant_id = $1 AND month = $2), 0) >= s.monthly_budget AS over
         FROM llm_settings s WHERE s.tenant_id = $1`,
      [tenantId, month],
    )) as { over: boolean }[];
    return row?.over ?? false;
  }
}
