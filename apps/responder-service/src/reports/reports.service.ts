import { Injectable } from '@nestjs/common';
import { type ConversationReportLine, type ConversationReportRow, type ReportGrouping, type ReportScope } from '@parley/contracts';
import { ListCursors } from '@parley/service-kit';
import { DateTime } from 'luxon';
import { ReportsStore } from './reports.store';

const MAX_LINES = 1000;

/**
 * Conversation reports (CONTRACT.md §18): numbers per day, member, team or channel, and one line per conversation for
 * the CSV, for the conversations that started in the period. Days are counted in the report's time zone.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly store: ReportsStore,
    private readonly cursors: ListCursors,
  ) {}

  conversations(tenantId: string, asked: ReportScope, groupBy: ReportGrouping): Promise<{ data: ConversationReportRow[] }> {
    return this.store.conversations(tenantId, periodOf(asked), groupBy).then((data) => ({ data }));
  }

  async lines(tenantId: string, asked: ReportScope, limit: number, cursor: string | null): Promise<{ data: ConversationReportLine[]; next_cursor: string | null }> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || MAX_LINES), MAX_LINES);
    const cursors = this.cursors.of(tenantId, 'report-lines');
    const rows = await this.store.lines(tenantId, periodOf(asked), cursors.after(cursor), take + 1);
    return { data: rows.slice(0, take), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }
}

/** The period as asked (days `YYYY-MM-DD`, both included, in `tz`; or RFC 3339 instants, `to` excluded) as instants: a day starts at midnight in the report's time zone, and `to` includes its whole day. */
export function periodOf(asked: ReportScope): ReportScope {
  const bound = (value: string, end: boolean) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(value).toISOString();
    const day = DateTime.fromISO(value, { zone: asked.tz }).startOf('day');
    return (end ? day.plus({ days: 1 }) : day).toUTC().toISO()!;
  };
  return { ...asked, from: bound(asked.from, false), to: bound(asked.to, true) };
}
