import { Controller, Get, Query } from '@nestjs/common';
import type { LeadRecord, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';

/** Leads collected by `lead_capture` (CONTRACT.md §9), owned by responder-service. */
@Controller('api/v1/leads')
export class LeadsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<LeadRecord>> {
    return this.rpc.request('leads.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }
}
