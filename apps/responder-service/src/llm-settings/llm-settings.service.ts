import { Injectable } from '@nestjs/common';
import { validationProblem, type LlmSettingsRecord, type LlmSpendData } from '@parley/contracts';
import { CredentialCipher, ProblemException } from '@parley/service-kit';
import type { LlmSettingsEntity } from './llm-settings.entity';
import { LlmSettingsStore } from './llm-settings.store';

/** The decrypted settings the LLM client uses. */
export interface TenantLlm {
  baseUrl: string;
  apiKey: string;
  model: string;
  monthlyBudget: string;
}

const fieldProblem = (field: string, message: string) => new ProblemException(validationProblem([{ field, message }]));
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

@Injectable()
export class LlmSettingsService {
  constructor(
    private readonly settings: LlmSettingsStore,
    private readonly cipher: CredentialCipher,
  ) {}

  async put(tenantId: string, body: Record<string, unknown> | null | undefined): Promise<LlmSettingsRecord> {
    const { base_url, api_key, model, monthly_budget } = body ?? {};
    if (typeof base_url !== 'string' || base_url.length > 2000 || !isHttpUrl(base_url)) throw fieldProblem('base_url', 'base_url must be an http(s) URL');
    if (typeof api_key !== 'string' || api_key.length < 1 || api_key.length > 500) throw fieldProblem('api_key', 'api_key must be a string of 1 to 500 characters');
    if (typeof model !== 'string' || model.length < 1 || model.length > 200) throw fieldProblem('model', 'model must be a string of 1 to 200 characters');
    if (typeof monthly_budget !== 'string' || !DECIMAL.test(monthly_budget)) {
      throw fieldProblem('monthly_budget', 'monthly_budget must be a decimal string ≥ 0 (e.g. "25.00")');
    }
    const row: LlmSettingsEntity = {
      tenantId,
      baseUrl: base_url,
      apiKeyEncrypted: this.cipher.encrypt(api_key),
      apiKeyLast4: api_key.slice(-4),
      model,
      monthlyBudget: monthly_budget,
      updatedAt: new Date(),
    };
    await this.settings.put(row);
    return (await this.get(tenantId))!;
  }

  async get(tenantId: string): Promise<LlmSettingsRecord | null> {
    const row = await this.settings.find(tenantId);
    if (!row) return null;
    return { base_url: row.baseUrl, model: row.model, monthly_budget: row.monthlyBudget, api_key_set: true, api_key_last4: row.apiKeyLast4 };
  }

  /** Back to the global LLM settings. */
  async delete(tenantId: string): Promise<boolean> {
    return this.settings.delete(tenantId);
  }

  /**
   * Keeps billing's latest word on the tenant's LLM spend: a later month replaces an earlier one, and within a month the
   * running total only grows, so a redelivered or reordered `llm.spend` never lowers it.
   */
  async recordSpend(data: LlmSpendData): Promise<void> {
    await this.settings.recordSpend(data.tenant_id, { month: data.month, amount: data.spend, currency: data.currency });
  }

  /** Whether the tenant's LLM spend of `month` (YYYY-MM, UTC) has reached its budget; false without settings. */
  async overBudget(tenantId: string, month: string): Promise<boolean> {
    return this.settings.overBudget(tenantId, month);
  }

  /** The tenant's own LLM with its key decrypted, or null when it uses the global one. */
  async tenantLlm(tenantId: string): Promise<TenantLlm | null> {
    const row = await this.settings.find(tenantId);
    if (!row) return null;
    return { baseUrl: row.baseUrl, apiKey: this.cipher.decrypt(row.apiKeyEncrypted), model: row.model, monthlyBudget: row.monthlyBudget };
  }
}
