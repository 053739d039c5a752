import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactOptedInData, ContactOptedOutData } from '@parley/contracts';
import { DataSource } from 'typeorm';

/**
 * Who opted out of a tenant's marketing (CONTRACT.md §12), and of its SMS numbers (a carrier STOP). responder-service
 * reads STOP and START and announces them; this is the send path's durable copy. Each change is applied only if it is
 * newer than the one stored, so a redelivered or late event never undoes a later START or STOP. All of it is SQL, so
 * this is a store: the consumer routes the events, the send paths ask.
 */
@Injectable()
export class OptOutsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Applies marketing opt-out changes (of any tenants, each naming its own) in one statement. */
  async apply(changes: readonly (ContactOptedOutData | ContactOptedInData)[]): Promise<void> {
    if (changes.length === 0) return;
    await this.db.query(
      `INSERT INTO opt_outs (tenant_id, customer, opted_out, keyword, changed_at)
       SELECT DISTINCT ON (c.tenant_id, c.customer) c.tenant_id, c.customer, c.opted_out, c.keyword, c.changed_at
       FROM jsonb_to_recordset($1::jsonb) AS c(tenant_id text, customer text, opted_out boolean, keyword text, changed_at timestamptz)
       ORDER BY c.tenant_id, c.customer, c.changed_at DESC
       ON CONFLICT (tenant_id, customer) DO UPDATE SET opted_out = EXCLUDED.opted_out, keyword = EXCLUDED.keyword, changed_at = EXCLUDED.changed_at
       WHERE opt_outs.changed_at <= EXCLUDED.changed_at`,
      [
        JSON.stringify(
          changes.map((c) => ({ tenant_id: c.tenant_id, customer: c.customer, opted_out: c.event === 'contact.opted_out', keyword: c.keyword, changed_at: c.at })),
        ),
      ],
    );
  }

  /**
   * A keyword on one channel (an SMS STOP or START): stored unless a newer change is, or this very message made it
   * already. True when this call changed the record (the change is then confirmed to the customer, once).
   */
  async applyOnChannel(tenantId: string, change: ContactOptedOutData | ContactOptedInData): Promise<boolean> {
    const rows = (await this.db.query(
      `INSERT INTO channel_opt_outs AS o (tenant_id, channel, customer, opted_out, keyword, message_id, changed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, channel, customer) DO UPDATE
         SET opted_out = EXCLUDED.opted_out, keyword = EXCLUDED.keyword, message_id = EXCLUDED.message_id, changed_at = EXCLUDED.changed_at
         WHERE o.changed_at <= EXCLUDED.changed_at AND o.message_id <> EXCLUDED.message_id
       RETURNING customer`,
      [tenantId, change.channel, change.customer, change.event === 'contact.opted_out', change.keyword, change.message_id, change.at],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Whether the customer wrote STOP on this channel and not START since: nothing is sent to them there. */
  async isOptedOutOn(tenantId: string, channel: string, customer: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT opted_out FROM channel_opt_outs WHERE tenant_id = $1 AND channel = $2 AND customer = $3`, [tenantId, channel, customer])) as {
      opted_out: boolean;
    }[];
    return rows[0]?.opted_out ?? false;
  }

  async isOptedOut(tenantId: string, customer: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT opted_out FROM opt_outs WHERE tenant_id = $1 AND customer = $2`, [tenantId, customer])) as { opted_out: boolean }[];
    return rows[0]?.opted_out ?? false;
  }
}
