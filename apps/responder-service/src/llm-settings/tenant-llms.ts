import { Injectable } from '@nestjs/common';
import { LlmSettingsService, type TenantLlm } from './llm-settings.service';

/** How long one instance trusts what it read; another instance's settings change or a new month reaches it by then. */
export const TENANT_LLM_TTL_MS = 30_000;
/** Tenants remembered at once (the oldest read is forgotten first). */
const MAX_TENANTS = 10_000;

/** Which LLM answers a tenant's customers. */
export type TenantLlmChoice =
  /** No settings of its own: the global LLM (or the skills engine when none is configured). */
  | { kind: 'global' }
  /** Its own LLM, under its monthly budget. */
  | { kind: 'own'; llm: TenantLlm }
  /** Its LLM spend of the month has reached its budget: the skills engine answers, no LLM is called. */
  | { kind: 'over_budget' };

/**
 * Each tenant's LLM choice, read from its settings and its month's spend at most once per TTL per tenant (not per
 * message), and forgotten at once when this instance changes the settings or hears a new spend.
 */
@Injectable()
export class TenantLlms {
  private readonly cache = new Map<string, { until: number; choice: Promise<TenantLlmChoice> }>();

  constructor(private readonly settings: LlmSettingsService) {}

  choose(tenantId: string, now = new Date()): Promise<TenantLlmChoice> {
    const cached = this.cache.get(tenantId);
    if (cached && cached.until > now.getTime()) return cached.choice;
    const choice = this.read(tenantId, now);
    // A failed read is not remembered: the next message asks again.
    choice.catch(() => this.cache.get(tenantId)?.choice === choice && this.cache.delete(tenantId));
    this.cache.delete(tenantId);
    if (this.cache.size >= MAX_TENANTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(tenantId, { until: now.getTime() + TENANT_LLM_TTL_MS, choice });
    return choice;
  }

  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }

  private async read(tenantId: string, now: Date): Promise<TenantLlmChoice> {
    const llm = await this.settings.tenantLlm(tenantId);
    if (!llm) return { kind: 'global' };
    if (await this.settings.overBudget(tenantId, now.toISOString().slice(0, 7))) return { kind: 'over_budget' };
    return { kind: 'own', llm };
  }
}
