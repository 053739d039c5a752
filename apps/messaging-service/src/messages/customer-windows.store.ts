import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Whether the customer wrote to the channel after `since` (an ISO time). */
export interface WindowCheck {
  channel_id: string;
  customer: string;
  since: string;
}

/**
 * The SQL of `customer_windows`. Rows belong to a channel, and so to its tenant: the channel id is the tenant-scoped
 * key here (CustomerWindowService decides which providers enforce the window and how long it lasts).
 */
@Injectable()
export class CustomerWindowsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Idempotent and order-independent: a redelivered or late message never moves the window back. */
  async recordInbound(channelId: string, customer: string, writtenAt: string): Promise<void> {
    await this.db.query(
      `INSERT INTO customer_windows (channel_id, customer, last_inbound_at) VALUES ($1, $2, $3)
       ON CONFLICT (channel_id, customer) DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at)`,
      [channelId, customer, writtenAt],
    );
  }

  /** Per check (in order), whether its window is open, in one statement. */
  async findOpen(checks: readonly WindowCheck[]): Promise<boolean[]> {
    const rows = (await this.db.query(
      `SELECT x.i FROM jsonb_to_recordset($1::jsonb) AS x(i int, channel_id text, customer text, since timestamptz)
       JOIN customer_windows w ON w.channel_id = x.channel_id AND w.customer = x.customer AND w.last_inbound_at > x.since`,
      [JSON.stringify(checks.map((c, i) => ({ i, ...c })))],
    )) as { i: number }[];
    const open = new Set(rows.map((r) => r.i));
    return checks.map((_, i) => open.has(i));
  }
}
