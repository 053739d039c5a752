import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { smsSegments, type BillingCategory, type LlmUsageEvent, type MessageOutboundEvent, type MessageStatusEvent, type TemplateStatusEvent } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { BalanceView } from '../balance-view/balance-view';
import { ChargesService } from './charges.service';
import { LlmSpend } from './llm-spend';

/**
 * Turns events into usage: one row per tenant, UTC day, channel and category, counted once per event id (the id is
 * recorded in the same transaction as the count, so a redelivered event changes nothing).
 */
@Injectable()
export class MeteringService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly charges: ChargesService,
    private readonly view: BalanceView,
    private readonly spend: LlmSpend,
  ) {}

  async onOutbound(event: MessageOutboundEvent): Promise<void> {
    const tenantId = event.tenant_id;
    // A voice reply is spoken on its call, which is metered by the minute (voice.call_ended), not as a message.
    if (!tenantId || event.data?.channel === 'voice') return;
    await this.charges.transaction(async (manager) => {
      if (!(await this.firstTime(manager, event.id))) return;
      const { data } = event;
      const category = await this.categoryOf(manager, tenantId, event);
      const day = data.accepted_at.slice(0, 10);
      const quantity = unitsOf(event);
      await manager.query(
        `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
        [tenantId, day, data.channel, category, quantity],
      );
      await this.charges.onAccepted(manager, { tenantId, messageId: data.message_id, channel: data.channel, category, day, quantity });
    });
    // Also for a redelivery: a retried send may have reserved again at the gateway.
    await this.view.push(tenantId, event.data.message_id);
  }

  async onStatus(event: MessageStatusEvent): Promise<void> {
    const tenantId = event.tenant_id;
    if (!tenantId) return;
    // delivered/read imply sent (a missed `sent` must not leave the money held).
    const outcome = event.data.status === 'failed' ? 'failed' : 'sent';
    await this.charges.transaction(async (manager) => {
      if (!(await this.firstTime(manager, event.id))) return;
      await this.charges.onOutcome(manager, tenantId, event.data.message_id, outcome);
    });
    await this.view.push(tenantId);
  }

  /**
   * An LLM call's tokens: usage `llm`/`llm_token` of the day it answered, their price when the book has one, and that
   * cost added to the tenant's LLM spend of the month (`llm.spend`).
   */
  async onLlmUsage(event: LlmUsageEvent): Promise<void> {
    const tenantId = event.tenant_id;
    const { data } = event;
    if (!tenantId || tenantId !== data.tenant_id) return;
    const tokens = data.total_tokens;
    await this.charges.transaction(async (manager) => {
      if (!(await this.firstTime(manager, event.id)) || !(tokens > 0)) return;
      await manager.query(
        `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity) VALUES ($1, $2, 'llm', 'llm_token', $3)
         ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
        [tenantId, data.at.slice(0, 10), tokens],
      );
      const cost = await this.charges.onTokens(manager, { tenantId, eventId: event.id, model: data.model, tokens });
      if (cost) await this.spend.add(manager, tenantId, data.at, cost);
    });
    await this.view.push(tenantId);
  }

  /** Remembers each template's category, which prices its sends. */
  async onTemplateStatus(event: TemplateStatusEvent): Promise<void> {
    const { template, tenant_id: tenantId } = event.data;
    await this.db.query(
      `INSERT INTO template_categories (tenant_id, name, language, category) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, name, language) DO UPDATE SET category = EXCLUDED.category`,
      [tenantId, template.name, template.language, template.category.toLowerCase()],
    );
  }

  private async firstTime(manager: EntityManager, eventId: string): Promise<boolean> {
    const rows = (await manager.query(`INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING event_id`, [eventId])) as unknown[];
    return rows.length > 0;
  }

  /**
   * A free-form message is `service` (it answers a customer inside the 24-hour window); a template send has its
   * template's category. A template billing has not heard of yet is priced as `marketing`, the dearest, rather than
   * undercharged.
   */
  private async categoryOf(manager: EntityManager, tenantId: string, event: MessageOutboundEvent): Promise<BillingCategory> {
    const { content } = event.data;
    const channel: string = event.data.channel;
    if (channel === 'sms' || channel === 'email') return channel;
    if (content.type !== 'template') return 'service';
    const [row] = (await manager.query(`SELECT category FROM template_categories WHERE tenant_id = $1 AND name = $2 AND language = $3`, [
      tenantId,
      content.template.name,
      content.template.language.code,
    ])) as { category: BillingCategory }[];
    return row?.category ?? 'marketing';
  }
}

/** What one message is billed as: an SMS per segment it goes out as (CONTRACT.md §17), anything else as one. */
function unitsOf(event: MessageOutboundEvent): number {
  const { channel, content } = event.data;
  return channel === 'sms' && content.type === 'text' ? smsSegments(content.text).segments : 1;
}
