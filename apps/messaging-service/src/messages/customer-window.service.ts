import { Injectable } from '@nestjs/common';
import type { MessageError, WhatsappProvider } from '@parley/contracts';
import { GroupCommit } from '@parley/service-kit';
import { CustomerWindowsStore, type WindowCheck } from './customer-windows.store';

/** WhatsApp's customer-service window: free-form messages only within 24 h of the customer's last message. */
export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The error WhatsApp itself gives a free-form message outside the window (CONTRACT.md §4). */
export const WINDOW_CLOSED: MessageError = {
  code: '131047',
  title: 'Re-engagement message: more than 24 hours have passed since the customer last wrote; send a template instead',
};

/** Providers that refuse free-form messages outside the window; the sandbox does not enforce it (CONTRACT.md §4). */
const ENFORCED: ReadonlySet<WhatsappProvider> = new Set(['meta', '360dialog']);

/**
 * When each customer last wrote to each number (`customer_windows`). Rows belong to a channel, and so to its tenant;
 * the channel id is the tenant-scoped key here. A customer known by phone and by business-scoped user id has a row
 * for each, so a send to either finds the window.
 */
@Injectable()
export class CustomerWindowService {
  private readonly checks = new GroupCommit<WindowCheck, boolean>((batch) => this.store.findOpen(batch));

  constructor(private readonly store: CustomerWindowsStore) {}

  /** Records an inbound message; idempotent and order-independent (redeliveries and late arrivals never move it back). */
  async recordInbound(channelId: string, customers: (string | null)[], writtenAt: string): Promise<void> {
    for (const customer of new Set(customers.filter((c): c is string => !!c))) await this.store.recordInbound(channelId, customer, writtenAt);
  }

  /** Whether a free-form message from this channel to this customer may go out now. Concurrent checks share one query. */
  async allowsFreeForm(provider: WhatsappProvider, channelId: string, customer: string, now = new Date()): Promise<boolean> {
    if (!ENFORCED.has(provider)) return true;
    return this.checks.add({ channel_id: channelId, customer, since: new Date(now.getTime() - CUSTOMER_WINDOW_MS).toISOString() });
  }
}
