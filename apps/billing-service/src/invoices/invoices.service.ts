import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, notFoundProblem, type InvoiceLineRecord, type InvoiceRecord, type Page } from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { closedMonthsSince, monthStart, type Period } from './invoice-periods';

const MAX_PAGE = 100;

interface InvoiceRow {
  id: string;
  number: number;
  period_start: Date;
  period_end: Date;
  currency: string;
  lines: InvoiceLineRecord[];
  total: string;
  payments: string;
  issued_at: Date;
}

const toRecord = (row: InvoiceRow): InvoiceRecord => ({
  id: row.id,
  number: row.number,
  period_start: row.period_start.toISOString(),
  period_end: row.period_end.toISOString(),
  currency: row.currency,
  lines: row.lines,
  total: row.total,
  payments: row.payments,
  issued_at: row.issued_at.toISOString(),
});

/**
 * Invoices (CONTRACT.md §16): what a tenant's usage cost over a period, one line per category, from the ledger
 * (settled charges less refunds, joined to the charge for its category). Each tenant's invoices are numbered 1, 2, 3, …
 * from a counter row locked in the issuing transaction, and their periods follow each other without overlap.
 */
@Injectable()
export class InvoicesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
    private readonly config: BillingServiceConfig,
  ) {}

  /** Closes every ended month of every tenant not invoiced yet (the monthly job; safe to run any time, any number of times). */
  async closeEndedMonths(now = new Date()): Promise<number> {
    const tenants = (await this.db.query(`SELECT tenant_id FROM wallets ORDER BY tenant_id`)) as { tenant_id: string }[];
    let issued = 0;
    for (const { tenant_id } of tenants) issued += await this.closeEndedMonthsOf(tenant_id, now);
    return issued;
  }

  /** Invoices each ended month of the tenant since its last invoice that saw ledger activity, in one transaction. */
  closeEndedMonthsOf(tenantId: string, now = new Date()): Promise<number> {
    return this.db.transaction(async (manager) => {
      const from = await this.lockAndFindStart(manager, tenantId);
      let issued = 0;
      for (const month of from ? closedMonthsSince(from, now) : []) {
        if (await this.issue(manager, tenantId, month)) issued++;
      }
      return issued;
    });
  }

  /**
   * The invoice of the current month so far: from the end of the tenant's last invoice (or the month's start) to now.
   * Ended months not invoiced yet (the job has not run since) are closed first, in the same transaction.
   */
  async issueCurrent(tenantId: string): Promise<InvoiceRecord> {
    const id = await this.db.transaction(async (manager) => {
      const from = await this.lockAndFindStart(manager, tenantId);
      const [{ now }] = (await manager.query(`SELECT clock_timestamp() AS now`)) as { now: Date }[];
      for (const month of from ? closedMonthsSince(from, now) : []) await this.issue(manager, tenantId, month);
      const start = from && from > monthStart(now) ? from : monthStart(now);
      return this.issue(manager, tenantId, { start, end: now }, true);
    });
    return this.get(tenantId, id!);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<InvoiceRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'billing-invoices');
    const after = cursors.after(cursor);
    const rows = (await this.db.query(
      `SELECT *, total::text, payments::text FROM invoices WHERE tenant_id = $1 AND ($2::int IS NULL OR number < $2::int) ORDER BY number DESC LIMIT $3`,
      [tenantId, after, take + 1],
    )) as InvoiceRow[];
    return { data: rows.slice(0, take).map(toRecord), next_cursor: cursors.next(rows, take, (row) => String(row.number)) };
  }

  async get(tenantId: string, invoiceId: string): Promise<InvoiceRecord> {
    const [row] = (await this.db.query(`SELECT *, total::text, payments::text FROM invoices WHERE tenant_id = $1 AND id = $2`, [tenantId, invoiceId])) as InvoiceRow[];
    if (!row) throw new ProblemException(notFoundProblem('The invoice'));
    return toRecord(row);
  }

  /**
   * Locks the tenant's invoice counter (serialising its invoicing) and its wallet (so postings in flight have
   * committed and later ones are timed after this), and answers where the next invoice starts: the end of the last
   * one, else the start of the month of the tenant's first ledger transaction; null when it has none.
   */
  private async lockAndFindStart(manager: EntityManager, tenantId: string): Promise<Date | null> {
    await manager.query(`INSERT INTO invoice_counters (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING`, [tenantId]);
    await manager.query(`SELECT 1 FROM invoice_counters WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
    await manager.query(`SELECT 1 FROM wallets WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
    const [row] = (await manager.query(
      `SELECT coalesce((SELECT max(period_end) FROM invoices WHERE tenant_id = $1),
                       (SELECT date_trunc('month', min(created_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM ledger_transactions WHERE tenant_id = $1)) AS start`,
      [tenantId],
    )) as { start: Date | null }[];
    return row.start;
  }

  /**
   * Writes the invoice of `period` with the next number, inside the caller's transaction (counter locked). A period
   * with no ledger activity gets no invoice unless `always` (asked for on demand): null then.
   */
  private async issue(manager: EntityManager, tenantId: string, period: Period, always = false): Promise<string | null> {
    const [activity] = (await manager.query(
      `SELECT count(*)::int AS n, coalesce(sum(amount) FILTER (WHERE kind = 'top_up'), 0)::numeric(20, 6)::text AS payments
         FROM ledger_transactions WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3`,
      [tenantId, period.start, period.end],
    )) as { n: number; payments: string }[];
    if (activity.n === 0 && !always) return null;
    const lines = (await manager.query(
      `SELECT coalesce(c.category, 'other') AS category,
              -- Units, not postings: a message is one, an LLM call's charge is its tokens.
              coalesce(sum(CASE WHEN t.kind = 'settlement' THEN coalesce(c.quantity, 1) ELSE -coalesce(c.quantity, 1) END), 0)::int AS quantity,
              sum(CASE WHEN t.kind = 'settlement' THEN t.amount ELSE -t.amount END)::numeric(20, 6)::text AS amount
         FROM ledger_transactions t LEFT JOIN charges c ON c.message_id = t.cause_id
        WHERE t.tenant_id = $1 AND t.kind IN ('settlement', 'refund') AND t.created_at >= $2 AND t.created_at < $3
        GROUP BY 1 ORDER BY 1`,
      [tenantId, period.start, period.end],
    )) as InvoiceLineRecord[];
    const [[counter]] = (await manager.query(`UPDATE invoice_counters SET last_number = last_number + 1 WHERE tenant_id = $1 RETURNING last_number`, [tenantId])) as [
      { last_number: number }[],
      number,
    ];
    const id = newId('inv');
    await manager.query(
      `INSERT INTO invoices (id, tenant_id, number, period_start, period_end, currency, lines, total, payments)
       VALUES ($1, $2, $3, $4, $5, coalesce((SELECT currency FROM wallets WHERE tenant_id = $2), $8), $6::jsonb,
               coalesce((SELECT sum((l->>'amount')::numeric) FROM jsonb_array_elements($6::jsonb) l), 0), $7::numeric)`,
      [id, tenantId, counter.last_number, period.start, period.end, JSON.stringify(lines), activity.payments, this.config.BILLING_CURRENCY],
    );
    return id;
  }
}
