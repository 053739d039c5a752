import { Controller, Get, Param, Query } from '@nestjs/common';
import type { AgentAnalytics } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { AgentNamePipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { AgentAnalyticsQueryDto } from './agent-analytics-query.dto';

/** An agent's analytics (CONTRACT.md §19), kept by responder-service with each reply. */
@Controller('api/v1/agents/:agent_name/analytics')
export class AgentAnalyticsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: "An agent's analytics",
    description:
      'Its replies per day (in `tz`, default UTC) and language: `questions` (replies given), `answered` from its knowledge, `not_known`, `handed_off`, `bookings`, `leads`; and the knowledge they used most and never (`sources`). Default range: the last 30 days; at most 366.',
    access: 'tenant',
    query: AgentAnalyticsQueryDto,
    success: { status: 200, description: "The agent's analytics.", schema: 'AgentAnalytics' },
    errors: [400, 404, 503],
  })
  @Get()
  analytics(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Query() query: AgentAnalyticsQueryDto, @RequestId() requestId: string): Promise<AgentAnalytics> {
    return this.rpc.request('analytics.agent', { tenant_id: tenantId, agent, from: query.from ?? null, to: query.to ?? null, tz: query.tz ?? null }, { requestId });
  }
}
