import { Controller, Get, Query, Res } from '@nestjs/common';
import { validationProblem, type ConversationReportLine, type ConversationReportRow } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { CurrentMember, RequestId, Tenant, type SignedInMember } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ReportQueryDto, reportPeriodErrors } from './report-query.dto';

const LINES_PAGE = 1000;
const LINE_COLUMNS: (keyof ConversationReportLine)[] = [
  'id',
  'channel',
  'customer',
  'contact_name',
  'team_id',
  'assignee',
  'state',
  'labels',
  'started_at',
  'handed_off_at',
  'first_response_at',
  'closed_at',
  'first_response_s',
  'resolution_s',
  'sla_breached',
];
const SCOPE =
  'Conversations with real customers (the playground’s left out) that started in the period: `from` and `to` are days (`YYYY-MM-DD`, both included, in `tz`, default UTC) or RFC 3339 instants (`to` excluded), at most a year apart. A team member of role `agent` gets only the conversations they hold.';

/** Conversation reports (CONTRACT.md §18), computed by responder-service in SQL. */
@Controller('api/v1/reports')
export class ReportsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Conversation report',
    description: `${SCOPE} One row per day, member, team or channel (\`group_by\`, default day): opened, closed, resolved by the AI agent alone (never handed to a person), handed off, first-response time (handoff to a person’s first reply) and resolution time (start to close) as p50 and p90 in seconds, conversations that missed an SLA target, and CSAT (the average of the customers’ 1–5 ratings and how many rated).`,
    access: 'tenant',
    query: ReportQueryDto,
    success: { status: 200, description: 'The rows, by key.', schema: 'ConversationReport' },
    errors: [503],
  })
  @Get('conversations')
  conversations(
    @Tenant() tenantId: string,
    @Query() query: ReportQueryDto,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<{ data: ConversationReportRow[] }> {
    return this.rpc.request('reports.conversations', { tenant_id: tenantId, ...scopeOf(query, member), group_by: query.group_by ?? 'day' }, { requestId });
  }

  @ApiRoute({
    summary: 'Conversation report as CSV',
    description: `${SCOPE} One row per conversation, oldest first: ${LINE_COLUMNS.join(', ')} (labels separated by \`;\`, times in seconds).`,
    access: 'tenant',
    query: ReportQueryDto,
    success: { status: 200, description: 'The CSV.', contentType: 'text/csv', schema: { type: 'string' } },
    errors: [503],
  })
  @Get('conversations.csv')
  async csv(@Tenant() tenantId: string, @Query() query: ReportQueryDto, @CurrentMember() member: SignedInMember | null, @RequestId() requestId: string, @Res() reply: FastifyReply): Promise<void> {
    const scope = scopeOf(query, member);
    const page = (cursor: string | null) => this.rpc.request('reports.conversation-lines', { tenant_id: tenantId, ...scope, limit: LINES_PAGE, cursor }, { requestId });
    // The first page is read before answering, so a responder-service that cannot answer gets a 503, not a cut-off file.
    const first = await page(null);
    async function* lines(): AsyncGenerator<string> {
      yield stringify([LINE_COLUMNS]);
      for (let current = first; ; current = await page(current.next_cursor)) {
        if (current.data.length) yield stringify(current.data.map((line) => LINE_COLUMNS.map((column) => cell(line[column]))));
        if (!current.next_cursor) return;
      }
    }
    await reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="conversations.csv"').send(Readable.from(lines()));
  }
}

/** The period as asked, checked as a whole (each bound alone is the DTO's), and the member an `agent` is limited to. */
function scopeOf(query: ReportQueryDto, member: SignedInMember | null) {
  const errors = reportPeriodErrors(query);
  if (errors.length > 0) throw new ProblemException(validationProblem(errors, 'The query parameters are not valid.'));
  return { from: query.from, to: query.to, tz: query.tz ?? 'UTC', member: member?.role === 'agent' ? member.id : null };
}

function cell(value: unknown): string | number | boolean | null {
  if (Array.isArray(value)) return value.join(';');
  return value as string | number | boolean | null;
}
