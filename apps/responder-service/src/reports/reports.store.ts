import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ConversationReportLine, ConversationReportRow, ReportGrouping, ReportScope } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** The group key of each grouping, in SQL over `c` (a day in the report's time zone, `$4`). */
const KEYS: Record<ReportGrouping, string> = {
  day: `to_char(c.started_at AT TIME ZONE $4, 'YYYY-MM-DD')`,
  member: 'c.assignee',
  team: 'c.team_id',
  channel: 'c.channel',
};

/** Seconds between two timestamps, as a number. */
const seconds = (from: string, to: string) => `extract(epoch FROM (${to} - ${from}))::float8`;

/**
 * The conversation reports (CONTRACT.md §18), computed in SQL over the conversations that started in the period
 * (index conversations_started): real customers only, the playground's left out; a member of role `agent` sees the
 * conversations they hold. The tenant id first.
 */
@Injectable()
export class ReportsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async conversations(tenantId: string, scope: ReportScope, groupBy: ReportGrouping): Promise<ConversationReportRow[]> {
    const firstResponse = seconds('c.handed_off_at', 'c.first_member_reply_at');
    const resolution = seconds('c.started_at', 'c.closed_at');
    const rows: ConversationReportRow[] = await this.db.query(
      `SELECT ${KEYS[groupBy]} AS key,
              count(*)::int AS opened,
              count(*) FILTER (WHERE c.state = 'closed')::int AS closed,
              count(*) FILTER (WHERE c.handed_off_at IS NULL)::int AS resolved_by_agent,
              count(c.handed_off_at)::int AS handed_off,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ${firstResponse}) FILTER (WHERE c.first_member_reply_at >= c.handed_off_at) AS first_response_p50_s,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY ${firstResponse}) FILTER (WHERE c.first_member_reply_at >= c.handed_off_at) AS first_response_p90_s,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ${resolution}) FILTER (WHERE c.state = 'closed') AS resolution_p50_s,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY ${resolution}) FILTER (WHERE c.state = 'closed') AS resolution_p90_s,
              count(*) FILTER (WHERE cardinality(c.sla_breaches) > 0)::int AS sla_breaches,
              round(avg(c.rating_score), 2)::float8 AS csat_avg,
              count(c.rating_score)::int AS csat_count
         FROM conversations c
        WHERE c.tenant_id = $1 AND c.started_at >= $2 AND c.started_at < $3 AND c.source = 'customer' AND ($5::text IS NULL OR c.assignee = $5)
          -- the time zone names days only; named here too so PostgreSQL can type it under every grouping
          AND $4::text IS NOT NULL
        GROUP BY 1 ORDER BY 1 NULLS LAST`,
      [tenantId, scope.from, scope.to, scope.tz, scope.member],
    );
    return rows.map((r) => ({ ...r, first_response_p50_s: rounded(r.first_response_p50_s), first_response_p90_s: rounded(r.first_response_p90_s), resolution_p50_s: rounded(r.resolution_p50_s), resolution_p90_s: rounded(r.resolution_p90_s) }));
  }

  /** One line per conversation of the period, oldest first, `limit` after the conversation id `after`. */
  async lines(tenantId: string, scope: ReportScope, after: string | null, limit: number): Promise<ConversationReportLine[]> {
    const rows: (Omit<ConversationReportLine, 'started_at' | 'handed_off_at' | 'first_response_at' | 'closed_at'> & {
      started_at: Date;
      handed_off_at: Date | null;
      first_response_at: Date | null;
      closed_at: Date | null;
    })[] = await this.db.query(
      `SELECT c.id, c.channel, c.customer, coalesce(c.contact_name, c.lead_name, c.profile_name) AS contact_name, c.team_id, c.assignee, c.state, c.labels,
              c.started_at, c.handed_off_at, c.first_member_reply_at AS first_response_at, CASE WHEN c.state = 'closed' THEN c.closed_at END AS closed_at,
              CASE WHEN c.first_member_reply_at >= c.handed_off_at THEN ${seconds('c.handed_off_at', 'c.first_member_reply_at')} END AS first_response_s,
              CASE WHEN c.state = 'closed' THEN ${seconds('c.started_at', 'c.closed_at')} END AS resolution_s,
              cardinality(c.sla_breaches) > 0 AS sla_breached
         FROM conversations c
        WHERE c.tenant_id = $1 AND c.started_at >= $2 AND c.started_at < $3 AND c.source = 'customer' AND ($4::text IS NULL OR c.assignee = $4)
          AND ($5::text IS NULL OR c.id > $5)
        ORDER BY c.id LIMIT ${limit}`,
      [tenantId, scope.from, scope.to, scope.member, after],
    );
    const iso = (at: Date | null) => (at ? at.toISOString() : null);
    return rows.map((r) => ({
      ...r,
      started_at: r.started_at.toISOString(),
      handed_off_at: iso(r.handed_off_at),
      first_response_at: iso(r.first_response_at),
      closed_at: iso(r.closed_at),
      first_response_s: rounded(r.first_response_s),
      resolution_s: rounded(r.resolution_s),
    }));
  }
}

/** Whole seconds (the percentiles interpolate). */
function rounded(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
