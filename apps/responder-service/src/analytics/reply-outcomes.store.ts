import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AgentAnalyticsDay, AgentKnowledgeSource } from '@parley/contracts';
import { DataSource } from 'typeorm';
import type { WritePart } from '../replies/burst.store';

export type ReplyOutcomeKind = 'answered' | 'not_known' | 'handed_off' | 'other';

/** What one agent reply did, as it is written with the reply. */
export interface ReplyOutcomeRow {
  messageId: string;
  agent: string;
  at: Date;
  language: string;
  outcome: ReplyOutcomeKind;
  booked: boolean;
  lead: boolean;
  sources: AgentKnowledgeSource[];
}

/** A range of whole days in a time zone: `from` and `to` are `YYYY-MM-DD`, both included. */
export interface DayRange {
  from: string;
  to: string;
  tz: string;
}

// the range's instants: midnight of `from` to midnight after `to`, in the zone
const IN_RANGE = `tenant_id = $1 AND agent_name = $2
  AND at >= ($3::date::timestamp AT TIME ZONE $5) AND at < (($4::date + 1)::timestamp AT TIME ZONE $5)`;

/** Agent reply outcomes in SQL; every statement is scoped by tenant and agent. */
@Injectable()
export class ReplyOutcomesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The reply's outcome row, written by the reply's own statement (BurstStore.write), so it costs no round trip. */
  written(tenantId: string, row: ReplyOutcomeRow): WritePart {
    return (p) =>
      `INSERT INTO reply_outcomes (tenant_id, message_id, agent_name, at, language, outcome, booked, lead, sources)
       VALUES (${p(tenantId)}, ${p(row.messageId)}, ${p(row.agent)}, ${p(row.at)}::timestamptz, ${p(row.language)}, ${p(row.outcome)}, ${p(row.booked)}::boolean,
               ${p(row.lead)}::boolean, ${p(JSON.stringify(row.sources))}::jsonb)
       ON CONFLICT DO NOTHING`;
  }

  /** Per day (in the range's zone) and language, oldest first. */
  days(tenantId: string, agent: string, range: DayRange): Promise<AgentAnalyticsDay[]> {
    return this.db.query(
      `SELECT to_char((at AT TIME ZONE $5)::date, 'YYYY-MM-DD') AS day, language,
              count(*)::int AS questions,
              (count(*) FILTER (WHERE outcome = 'answered'))::int AS answered,
              (count(*) FILTER (WHERE outcome = 'not_known'))::int AS not_known,
              (count(*) FILTER (WHERE outcome = 'handed_off'))::int AS handed_off,
              (count(*) FILTER (WHERE booked))::int AS bookings,
              (count(*) FILTER (WHERE lead))::int AS leads
         FROM reply_outcomes WHERE ${IN_RANGE}
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [tenantId, agent, range.from, range.to, range.tz],
    );
  }

  /** Every source the range's replies used, with how many replies used it, the most used first. */
  sourceUses(tenantId: string, agent: string, range: DayRange): Promise<(AgentKnowledgeSource & { count: number })[]> {
    return this.db.query(
      `SELECT s->>'type' AS type, s->>'id' AS id, max(s->>'title') AS title, count(*)::int AS count
         FROM reply_outcomes, jsonb_array_elements(sources) s WHERE ${IN_RANGE}
        GROUP BY 1, 2 ORDER BY count DESC, id`,
      [tenantId, agent, range.from, range.to, range.tz],
    );
  }
}
