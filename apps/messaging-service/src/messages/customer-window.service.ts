import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageError, WhatsappProvider } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { GroupCommit } from '@parley/service-kit';

/** WhatsApp's customer-service window: free-form messages only within 24 h of the customer's last message. */
export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The error WhatsApp itself gives a free-form message outside the window (CONTRACT.md §4). */
export const WINDOW_CLOSED: MessageError = {
  code: '131047',
  title: 'Re-engagement message: more than 24 hours have passed since the customer last wrote; send a template instead',
};

interface WindowCheck {
  channel_id: string;
  customer: string;
  since: string;
}

/** Providers that refuse free-form messages outside the window; the sandbox does not enforce it (CONTRACT.md §4). */
const ENFORCED: ReadonlySet<WhatsappProvider> = new Set(['meta', '360dialog']);

/**
 * When each customer last wrote to each number (`customer_windows`). Rows belong to a channel, and so to its tenant;
 * the channel id is the tenant-scoped key here. A customer known by phone and by business-scoped user id has a row
 * for each, so a send to either finds the window.
 */
@Injectable()
export class CustomerWindowService {
  private readonly checks = new GroupCommit<WindowCheck, boolean>((batch) => this.findOpen(batch));

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records an inbound message; idempotent and order-independent (redeliveries and late arrivals never move it back). */
  async recordInbound(channelId: string, customers: (string | null)[], writtenAt: string): Promise<void> {
    for (const customer of new Set(customers.filter((c): c is string => !!c))) {
      await this.db.query(
        `INSERT INTO customer_windows (channel_id, customer, last_inbound_at) VALUES ($1, $2, $3)
         ON CONFLICT (channel_id, customer) DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at)`,
        [channelId, customer, writtenAt],
      );
    }
  }

  /** Whether a free-form message from this channel to this customer may go out now. Concurrent checks share one query. */
  async allowsFreeForm(provider: WhatsappProvider, channelId: string, customer: string, now = new Date()): Promise<boolean> {
    if (!ENFORCED.has(provider)) return true;
    return this.checks.add({ channel_id: channelId, customer, since: new Date(now.getTime() - CUSTOMER_WINDOW_MS).toISOString() });
  }

  private async findOpen(checks: WindowCheck[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.i FROM jsonb_to_recordset($1::jsonb) AS x(i int, channel_id text, customer text, since timestamptz)
       JOIN customer_windows w ON w.channel_id = x.channel_id AND w.customer = x.customer AND w.last_inbound_at > x.since`,
      [JSON.stringify(checks.map((c, i) => ({ i, ...c })))],
    )) as { i: number }[];
    const open = new Set(rows.map((r) => r.i));
    return checks.map((_, i) => open.has(i));
  }
}
