import { Injectable } from '@nestjs/common';
import { smsSegments, type BillingCategory, type LlmUsageEvent, type MessageOutboundEvent, type MessageStatusEvent, type TemplateStatusEvent } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { BalanceView } from '../balance-view/balance-view';
import { ChargesService, type AcceptedSend } from './charges.service';
import { LlmSpend } from './llm-spend';
import { MeteringStore } from './metering.store';
import { outcomeOf } from './status-outcomes';

/**
 * Turns events into usage: one row per tenant, UTC day, channel and category, counted once per event id (the id is
 * recorded in the same transaction as the count, so a redelivered event changes nothing).
 */
@Injectable()
export class MeteringService {
  /** `message.outbound` of the key groups consumed side by side, metered in one transaction (group commit). */
  private readonly outbound = new GroupCommit<MessageOutboundEvent, void>(async (events) => {
    await this.meter(events);
    return events.map(() => undefined);
  });

  /** `message.status` of the key groups consumed side by side, applied in one transaction (group commit). */
  private readonly statuses = new GroupCommit<MessageStatusEvent, void>(async (events) => {
    await this.settle(events);
    return events.map(() => undefined);
  });

  constructor(
    private readonly store: MeteringStore,
    private readonly charges: ChargesService,
    private readonly view: BalanceView,
    private readonly spend: LlmSpend,
  ) {}

  /**
   * The sends of one consumed key group. The groups consumed side by side are metered together (group commit): one
   * transaction and a constant number of statements for all their events, whatever their number.
   */
  async onOutbound(events: readonly MessageOutboundEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.outbound.add(event)));
  }

  /**
   * Meters a batch of `message.outbound` in one transaction, as one event at a time would in their order: each event
   * id counts once (duplicates in the batch and redeliveries change nothing), its usage is counted and its send priced
   * (ChargesService.acceptMany); then each tenant's balance view is pushed with one read for the batch.
   */
  async meter(events: readonly MessageOutboundEvent[]): Promise<void> {
    // A voice reply is spoken on its call, which is metered by the minute (voice.call_ended), not as a message.
    const metered = events.filter((event) => event.tenant_id && event.data?.channel !== 'voice');
    if (!metered.length) return;
    await this.charges.transaction(async (manager) => {
      const fresh = await this.firstTimes(manager, metered);
      if (!fresh.length) return;
      const categories = await this.categoriesOf(manager, fresh);
      const sends: AcceptedSend[] = fresh.map((event, i) => ({
        tenantId: event.tenant_id!,
        messageId: event.data.message_id,
        channel: event.data.channel,
        category: categories[i],
        day: event.data.accepted_at.slice(0, 10),
        quantity: unitsOf(event),
      }));
      await this.charges.acceptMany(manager, sends);
      await this.countUsage(manager, sends);
    });
    // Also for a redelivery: a retried send may have reserved again at the gateway.
    await this.view.pushMany(metered.map((event) => ({ tenantId: event.tenant_id!, chargedMessageId: event.data.message_id })));
  }

  /** Statuses that may change a charge (StatusOutcomes); the key groups consumed side by side share one transaction. */
  async onStatuses(events: readonly MessageStatusEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.statuses.add(event)));
  }

  /**
   * Applies a batch of `message.status` in one transaction, as one event at a time would in their order: each event id
   * once, its outcome on the message's charge (ChargesService.onOutcomes); then one balance-view read for the batch.
   */
  async settle(events: readonly MessageStatusEvent[]): Promise<void> {
    const applied = events.filter((event) => event.tenant_id);
    if (!applied.length) return;
    await this.charges.transaction(async (manager) => {
      const fresh = await this.firstTimes(manager, applied);
      if (!fresh.length) return;
      await this.charges.onOutcomes(
        manager,
        fresh.map((event) => ({ tenantId: event.tenant_id!, messageId: event.data.message_id, outcome: outcomeOf(event) })),
      );
    });
    await this.view.pushMany(applied.map((event) => ({ tenantId: event.tenant_id! })));
  }

  /**
   * An LLM call's tokens: usage `llm`/`llm_token` of the day it answered, their price when the book has one, and that
   * cost added to the tenant's LLM spend of the month (`llm.spend`). The wallet is charged only for a call on the
   * platform's key: on the tenant's own key (`key: 'tenant'`) the tenant pays its provider; an event without `key`
   * (published before the field existed) was on the platform's.
   */
  async onLlmUsage(event: LlmUsageEvent): Promise<void> {
    const tenantId = event.tenant_id;
    const { data } = event;
    if (!tenantId || tenantId !== data.tenant_id) return;
    const tokens = data.total_tokens;
    // `llm.spend` goes out once this commits (the wallet's transaction wakes the relay for what it queued)
    await this.charges.transaction(async (manager) => {
      if (!(await this.store.firstTime(event.id, manager)) || !(tokens > 0)) return;
      await this.store.addTokens(tenantId, data.at.slice(0, 10), tokens, manager);
      const key = data.key === 'tenant' ? 'tenant' : 'platform';
      const cost = await this.charges.onTokens(manager, { tenantId, eventId: event.id, model: data.model, tokens, key });
      if (cost) await this.spend.add(manager, tenantId, data.at, cost);
    });
    await this.view.push(tenantId);
  }

  /** Remembers each template's category, which prices its sends. */
  async onTemplateStatus(event: TemplateStatusEvent): Promise<void> {
    const { template, tenant_id: tenantId } = event.data;
    await this.store.setTemplateCategory(tenantId, template, template.category.toLowerCase());
  }

  /** The events seen for the first time, in order, each once (one statement; ids inserted in order, so no deadlock). */
  private async firstTimes<T extends { id: string }>(manager: EntityManager, events: readonly T[]): Promise<T[]> {
    const fresh = await this.store.firstTimes(
      events.map((event) => event.id),
      manager,
    );
    return events.filter((event) => fresh.delete(event.id));
  }

  /** Adds the sends' units to their days' usage: one row per tenant, day, channel and category, in key order. */
  private async countUsage(manager: EntityManager, sends: readonly AcceptedSend[]): Promise<void> {
    const totals = new Map<string, { send: AcceptedSend; quantity: number }>();
    for (const send of sends) {
      const key = [send.tenantId, send.day, send.channel, send.category].join('\u0000');
      const total = totals.get(key) ?? { send, quantity: 0 };
      total.quantity += send.quantity;
      totals.set(key, total);
    }
    const rows = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, { send, quantity }]) => ({ ...send, quantity }));
    await this.store.addUsage(rows, manager);
  }

  /**
   * A free-form message is `service` (it answers a customer inside the 24-hour window); a template send has its
   * template's category. A template billing has not heard of yet is priced as `marketing`, the dearest, rather than
   * undercharged. One look-up for the batch's template sends.
   */
  private async categoriesOf(manager: EntityManager, events: readonly MessageOutboundEvent[]): Promise<BillingCategory[]> {
    const templates = events.filter((event) => !['sms', 'email'].includes(event.data.channel) && event.data.content.type === 'template');
    const known = new Map<string, BillingCategory>();
    if (templates.length) {
      const template = (event: MessageOutboundEvent) => (event.data.content.type === 'template' ? event.data.content.template : undefined)!;
      const rows = await this.store.templateCategories(
        templates.map((e) => ({ tenantId: e.tenant_id!, name: template(e).name, language: template(e).language.code })),
        manager,
      );
      for (const row of rows) known.set(JSON.stringify([row.tenant_id, row.name, row.language]), row.category);
    }
    return events.map((event) => {
      const { content } = event.data;
      const channel: string = event.data.channel;
      if (channel === 'sms' || channel === 'email') return channel;
      if (content.type !== 'template') return 'service';
      return known.get(JSON.stringify([event.tenant_id, content.template.name, content.template.language.code])) ?? 'marketing';
    });
  }
}

/** What one message is billed as: an SMS per segment it goes out as (CONTRACT.md §17), anything else as one. */
function unitsOf(event: MessageOutboundEvent): number {
  const { channel, content } = event.data;
  return channel === 'sms' && content.type === 'text' ? smsSegments(content.text).segments : 1;
}
