import type { ParleyClient, components, paths } from '@parley/api-client';
import { unwrap } from './http';

// Conversation reports (CONTRACT.md §18): how many conversations opened, what the AI agent resolved alone, what went
// to a person and how fast they answered, missed targets and customer ratings, per day, member, team or channel.

/** The report: one row per key of the grouping. */
export type ConversationReport = components['schemas']['ConversationReport'];
/** One row: its key is the day (`YYYY-MM-DD`), the member (`usr_…`), the team (`tea_…`) or the channel kind; null: none. */
export type ConversationReportRow = ConversationReport['data'][number];
type ReportQuery = paths['/api/v1/reports/conversations']['get']['parameters']['query'];
export type ReportGrouping = NonNullable<ReportQuery['group_by']>;
export const REPORT_GROUPINGS: readonly ReportGrouping[] = ['day', 'member', 'team', 'channel'];
/** The period: `from` and `to` are days (`YYYY-MM-DD`, both included) in `tz` (an IANA zone). */
export type ReportPeriod = Required<Pick<ReportQuery, 'from' | 'to' | 'tz'>>;

export function createReportsApi(api: ParleyClient) {
  return {
    /** A member of role `agent` gets only the conversations they hold (the gateway scopes it). */
    conversationReport: (period: ReportPeriod, group_by: ReportGrouping) =>
      unwrap(api.GET('/api/v1/reports/conversations', { params: { query: { ...period, group_by } } })),
    /** The same period as a CSV file, one row per conversation (fetched with the session's credential). */
    conversationReportCsv: (period: ReportPeriod) => unwrap(api.GET('/api/v1/reports/conversations.csv', { params: { query: period }, parseAs: 'blob' })),
  };
}
