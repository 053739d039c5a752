import { Controller, Get, Query } from '@nestjs/common';
import type { ChannelRecord, Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { RequestId, Tenant } from '../http/request-context';

/** The tenant's WhatsApp numbers (CONTRACT.md §6), owned by messaging-service. Connecting numbers comes later. */
@Controller('api/v1/channels')
export class ChannelsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<ChannelRecord>> {
    return this.rpc.request('channels.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }
}
