import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { InvoiceLineRecord } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { Period } from './invoice-periods';

export interface InvoiceRow {
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

/** A period's ledger activity: how many transactions, and the top-ups paid in it (decimal). */
export interface PeriodActivity {
  n: number;
  payments: string;
}

/** An invoice as issued (its total is summed from its lines as written). */
export interface NewInvoice {
  id: string;
  number: number;
  period: Period;
  lines: InvoiceLineRecord[];
  payments: string;
  /** The currency when the tenant has no wallet. */
  defaultCurrency: string;
}

/** SQL of invoices. Issuing runs in one transaction per tenant (`tx` last), under the tenant's counter and wallet locks. */
@Injectable()
export class InvoicesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Every tenant with a wallet, in order (the monthly job's round). */
  async walletTenants(): Promise<string[]> {
    const rows = (await this.db.query(`SELECT tenant_id FROM wallets ORDER BY tenant_id`)) as { tenant_id: string }[];
    return rows.map((row) => row.tenant_id);
  }

  /**
   * Locks the tenant's invoice counter (serialising its invoicing) and its wallet (so postings in flight have
   * committed and later ones are timed after this), and answers where the next invoice starts: the end of the last
   * one, else the start of the month of the tenant's first ledger transaction; null when it has none.
   */
  async lockAndFindStart(tenantId: string, tx: EntityManager): Promise<Date | null> {
    await tx.query(`INSERT INTO invoice_counters (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING`, [tenantId]);
    await tx.query(`SELECT 1 FROM invoice_counters WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
    await tx.query(`SELECT 1 FROM wallets WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
    const [row] = (await tx.query(
      `SELECT coalesce((SELECT max(period_end) FROM invoices WHERE tenant_id = $1),
                       (SELECT date_trunc('month', min(created_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM ledger_transactions WHERE tenant_id = $1)) AS start`,
      [tenantId],
    )) as { start: Date | null }[];
    return row.start;
  }

  /** The database's clock now (not the transaction's start): where an on-demand invoice ends. */
  async clock(tx: EntityManager): Promise<Date> {
    const [{ now }] = (await tx.query(`SELECT clock_timestamp() AS now`)) as { now: Date }[];
    return now;
  }

  async activity(tenantId: string, period: Period, tx: EntityManager): Promise<PeriodActivity> {
    const [activity] = (await tx.query(
      `SELECT count(*)::int AS n, coalesce(sum(amount) FILTER (WHERE kind = 'top_up'), 0)::numeric(20, 6)::text AS payments
         FROM ledger_transactions WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3`,
      [tenantId, period.start, period.end],
    )) as PeriodActivity[];
    return activity;
  }

  /** A line per category: settled charges less refunds, in units and amount. */
  lines(tenantId: string, period: Period, tx: EntityManager): Promise<InvoiceLineRecord[]> {
    return tx.query(
      `SELECT coalesce(c.category, 'other') AS category,
              -- Units, not postings: a message is one, an LLM call's charge is its tokens.
              coalesce(sum(CASE WHEN t.kind = 'settlement' THEN coalesce(c.quantity, 1) ELSE -coalesce(c.quantity, 1) END), 0)::int AS quantity,
              sum(CASE WHEN t.kind = 'settlement' THEN t.amount ELSE -t.amount END)::numeric(20, 6)::text AS amount
         FROM ledger_transactions t LEFT JOIN charges c ON c.message_id = t.cause_id
        WHERE t.tenant_id = $1 AND t.kind IN ('settlement', 'refund') AND t.created_at >= $2 AND t.created_at < $3
        GROUP BY 1 ORDER BY 1`,
      [tenantId, period.start, period.end],
    ) as Promise<InvoiceLineRecord[]>;
  }

  /** Takes the tenant's next invoice number (its counter locked by lockAndFindStart). */
  async nextNumber(tenantId: string, tx: EntityManager): Promise<number> {
    const [[counter]] = (await tx.query(`UPDATE invoice_counters SET last_number = last_number + 1 WHERE tenant_id = $1 RETURNING last_number`, [tenantId])) as [
      { last_number: number }[],
      number,
    ];
    return counter.last_number;
  }

  /** Writes the invoice in the wallet's currency, its total the sum of its lines. */
  async insert(tenantId: string, invoice: NewInvoice, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO invoices (id, tenant_id, number, period_start, period_end, currency, lines, total, payments)
       VALUES ($1, $2, $3, $4, $5, coalesce((SELECT currency FROM wallets WHERE tenant_id = $2), $8), $6::jsonb,
               coalesce((SELECT sum((l->>'amount')::numeric) FROM jsonb_array_elements($6::jsonb) l), 0), $7::numeric)`,
      [invoice.id, tenantId, invoice.number, invoice.period.start, invoice.period.end, JSON.stringify(invoice.lines), invoice.payments, invoice.defaultCurrency],
    );
  }

  /** Newest first: up to `limit` invoices numbered below `beforeNumber` (null: from the newest). */
  list(tenantId: string, beforeNumber: string | null, limit: number): Promise<InvoiceRow[]> {
    return this.db.query(
      `SELECT *, total::text, payments::text FROM invoices WHERE tenant_id = $1 AND ($2::int IS NULL OR number < $2::int) ORDER BY number DESC LIMIT $3`,
      [tenantId, beforeNumber, limit],
    ) as Promise<InvoiceRow[]>;
  }

  async find(tenantId: string, id: string): Promise<InvoiceRow | null> {
    const [row] = (await this.db.query(`SELECT *, total::text, payments::text FROM invoices WHERE tenant_id = $1 AND id = $2`, [tenantId, id])) as InvoiceRow[];
    return row ?? null;
  }
}
