import { Controller, Get, Query } from '@nestjs/common';
import type { LeadRecord, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Leads collected by `lead_capture` (CONTRACT.md §9), owned by responder-service. */
@Controller('api/v1/leads')
export class LeadsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'List captured leads', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of leads.', schema: 'LeadPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<LeadRecord>> {
    return this.rpc.request('leads.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }
}
