import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { RoutingRuleRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { schemaRef } from '../openapi/dto-schema';

/** The tenant's ordered routing rules (CONTRACT.md §18), kept by responder-service, which checks them and names the bad field (`[1].match.channel`). */
@Controller('api/v1/routing-rules')
export class RoutingRulesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Replace the routing rules',
    description:
      'The body is the whole ordered list `[{match: {channel?, skill?, keyword?, contact_tag?}, team_id}]`: when the agent hands a conversation off, the first rule whose every condition holds picks its team (an empty `match` holds always); none → the oldest team. `[]` removes them all.',
    access: 'tenant',
    body: { schema: { type: 'array', items: schemaRef('RoutingRule'), maxItems: 100 }, contentTypes: ['application/json'] },
    success: { status: 200, description: 'The rules as now kept.', schema: 'RoutingRules' },
    errors: [503],
  })
  @Post()
  @HttpCode(200)
  @Requires('team.manage')
  replace(@Tenant() tenantId: string, @Body() body: unknown, @RequestId() requestId: string): Promise<{ data: RoutingRuleRecord[] }> {
    return this.rpc.request('routing-rules.replace', { tenant_id: tenantId, body }, { requestId });
  }

  @ApiRoute({ summary: 'List the routing rules', description: 'In order.', access: 'tenant', success: { status: 200, description: 'The rules.', schema: 'RoutingRules' }, errors: [503] })
  @Get()
  list(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: RoutingRuleRecord[] }> {
    return this.rpc.request('routing-rules.list', { tenant_id: tenantId }, { requestId });
  }
}
