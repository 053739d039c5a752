import { Injectable } from '@nestjs/common';
import { newId, notFoundProblem, type InvoiceRecord, type Page } from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';
import { closedMonthsSince, monthStart, type Period } from './invoice-periods';
import { InvoicesStore, type InvoiceRow } from './invoices.store';

const MAX_PAGE = 100;

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
    private readonly store: InvoicesStore,
    private readonly cursors: ListCursors,
    private readonly config: BillingServiceConfig,
  ) {}

  /** Closes every ended month of every tenant not invoiced yet (the monthly job; safe to run any time, any number of times). */
  async closeEndedMonths(now = new Date()): Promise<number> {
    let issued = 0;
    for (const tenantId of await this.store.walletTenants()) issued += await this.closeEndedMonthsOf(tenantId, now);
    return issued;
  }

  /** Invoices each ended month of the tenant since its last invoice that saw ledger activity, in one transaction. */
  closeEndedMonthsOf(tenantId: string, now = new Date()): Promise<number> {
    return this.store.transaction(async (manager) => {
      const from = await this.store.lockAndFindStart(tenantId, manager);
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
    const id = await this.store.transaction(async (manager) => {
      const from = await this.store.lockAndFindStart(tenantId, manager);
      const now = await this.store.clock(manager);
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
    const rows = await this.store.list(tenantId, after, take + 1);
    return { data: rows.slice(0, take).map(toRecord), next_cursor: cursors.next(rows, take, (row) => String(row.number)) };
  }

  async get(tenantId: string, invoiceId: string): Promise<InvoiceRecord> {
    const row = await this.store.find(tenantId, invoiceId);
    if (!row) throw new ProblemException(notFoundProblem('The invoice'));
    return toRecord(row);
  }

  /**
   * Writes the invoice of `period` with the next number, inside the caller's transaction (counter locked). A period
   * with no ledger activity gets no invoice unless `always` (asked for on demand): null then.
   */
  private async issue(manager: EntityManager, tenantId: string, period: Period, always = false): Promise<string | null> {
    const activity = await this.store.activity(tenantId, period, manager);
    if (activity.n === 0 && !always) return null;
    const lines = await this.store.lines(tenantId, period, manager);
    const number = await this.store.nextNumber(tenantId, manager);
    const id = newId('inv');
    await this.store.insert(tenantId, { id, number, period, lines, payments: activity.payments, defaultCurrency: this.config.BILLING_CURRENCY }, manager);
    return id;
  }
}
