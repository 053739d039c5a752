import type { TenantScoped } from './rpc-shapes';

/** How `GET /api/v1/reports/conversations` groups its rows. */
export const REPORT_GROUPINGS = ['day', 'member', 'team', 'channel'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];

/** One group's numbers (CONTRACT.md §18): conversations that started in the period. Times in seconds; null when none to measure. */
export interface ConversationReportRow {
  /** The day (`YYYY-MM-DD` in the report's time zone), the member (`usr_…`), the team (`tea_…`) or the channel kind; null: none (unassigned, no team). */
  key: string | null;
  /** @apiType integer */
  opened: number;
  /** @apiType integer */
  closed: number;
  /**
   * Never handed to a person: what the AI agent resolved alone.
   * @apiType integer
   */
  resolved_by_agent: number;
  /** @apiType integer */
  handed_off: number;
  /**
   * From the handoff to a person's first reply, in seconds; null when none to measure.
   * @apiType integer
   */
  first_response_p50_s: number | null;
  /** @apiType integer */
  first_response_p90_s: number | null;
  /**
   * From the start to the close, in seconds.
   * @apiType integer
   */
  resolution_p50_s: number | null;
  /** @apiType integer */
  resolution_p90_s: number | null;
  /**
   * Conversations that missed a target of their team's SLA.
   * @apiType integer
   */
  sla_breaches: number;
  csat_avg: number | null;
  /** @apiType integer */
  csat_count: number;
}

/** One conversation of the CSV export. */
export interface ConversationReportLine {
  id: string;
  channel: string;
  customer: string;
  contact_name: string | null;
  team_id: string | null;
  assignee: string | null;
  state: string;
  labels: string[];
  started_at: string;
  handed_off_at: string | null;
  first_response_at: string | null;
  closed_at: string | null;
  first_response_s: number | null;
  resolution_s: number | null;
  sla_breached: boolean;
}

/** A report's period and scope: `[from, to)` instants, the time zone days are counted in, and for a member of role `agent`, only theirs. */
export interface ReportScope {
  from: string;
  to: string;
  tz: string;
  member: string | null;
}

export interface ReportsRpc {
  'reports.conversations': { service: 'responder'; request: TenantScoped & ReportScope & { group_by: ReportGrouping }; response: { data: ConversationReportRow[] } };
  'reports.conversation-lines': {
    service: 'responder';
    request: TenantScoped & ReportScope & { limit: number; cursor: string | null };
    response: { data: ConversationReportLine[]; next_cursor: string | null };
  };
}
