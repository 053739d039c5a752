import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** An appointment as the feed shows it. */
export interface FeedAppointmentRow {
  id: string;
  agent_name: string;
  conversation_id: string;
  customer: string;
  starts_at: Date;
  ends_at: Date;
  status: 'booked' | 'cancelled';
  created_at: Date;
}

/** Tenants' calendar feed tokens (one per tenant) and what a feed lists. */
@Injectable()
export class CalendarFeedsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The tenant's token, `token` stored first if it has none (two racing first asks agree on one). */
  async tokenOf(tenantId: string, token: string): Promise<string> {
    await this.db.query(`INSERT INTO calendar_feeds (tenant_id, token) VALUES ($1, $2) ON CONFLICT (tenant_id) DO NOTHING`, [tenantId, token]);
    const [row]: { token: string }[] = await this.db.query(`SELECT token FROM calendar_feeds WHERE tenant_id = $1`, [tenantId]);
    return row.token;
  }

  async replaceToken(tenantId: string, token: string): Promise<void> {
    await this.db.query(
      `INSERT INTO calendar_feeds (tenant_id, token) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET token = EXCLUDED.token, created_at = now()`,
      [tenantId, token],
    );
  }

  /** The tenant a token opens, or null. */
  async tenantOf(token: string): Promise<string | null> {
    const [feed]: { tenant_id: string }[] = await this.db.query(`SELECT tenant_id FROM calendar_feeds WHERE token = $1`, [token]);
    return feed?.tenant_id ?? null;
  }

  /** The tenant's appointments from `pastDays` ago on, by start, at most `limit`. */
  appointments(tenantId: string, pastDays: number, limit: number): Promise<FeedAppointmentRow[]> {
    return this.db.query(
      `SELECT id, agent_name, conversation_id, customer, starts_at, ends_at, status, created_at
         FROM appointments
        WHERE tenant_id = $1 AND starts_at >= now() - make_interval(days => $2)
        ORDER BY starts_at, id
        LIMIT $3`,
      [tenantId, pastDays, limit],
    );
  }
}
