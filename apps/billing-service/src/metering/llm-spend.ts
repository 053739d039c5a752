import { Injectable } from '@nestjs/common';
import { Topics, newId, type LlmSpendData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { EntityManager } from 'typeorm';
import { Outbox } from '../outbox/outbox';
import { LlmSpendStore } from './llm-spend.store';

/**
 * Each tenant's LLM spend per calendar month (UTC), from the cost of every metered call, and `llm.spend` with the new
 * running total, queued in the same transaction: the responder holds the tenant's LLM budget against it (CONTRACT.md
 * §16) without asking billing per message.
 */
@Injectable()
export class LlmSpend {
  constructor(
    private readonly store: LlmSpendStore,
    private readonly outbox: Outbox,
  ) {}

  /** Adds one call's cost to the month of `at` (inside the caller's metering transaction, once per usage event). */
  async add(manager: EntityManager, tenantId: string, at: string, cost: { amount: string; currency: string }): Promise<void> {
    const row = await this.store.add(tenantId, at, cost, manager);
    const data: LlmSpendData = { tenant_id: tenantId, month: row.month, spend: row.spend, currency: row.currency, at: new Date().toISOString() };
    await this.outbox.add(manager, EventPublisher.envelope(Topics.LlmSpend, tenantId, data, newId('evt')), tenantId);
  }
}
