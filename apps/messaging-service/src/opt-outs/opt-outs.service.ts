import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactOptedInData, ContactOptedOutData } from '@parley/contracts';
import { DataSource } from 'typeorm';

/**
 * Who opted out of a tenant's marketing (CONTRACT.md §12). responder-service reads STOP and START and announces them;
 * this is the send path's durable copy. Each change is applied only if it is newer than the one stored, so a
 * redelivered or late event never undoes a later START or STOP.
 */
@Injectable()
export class OptOutsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

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

  async isOptedOut(tenantId: string, customer: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT opted_out FROM opt_outs WHERE tenant_id = $1 AND customer = $2`, [tenantId, customer])) as { opted_out: boolean }[];
    return rows[0]?.opted_out ?? false;
  }
}
