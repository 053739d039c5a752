import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { CampaignsService } from './campaigns.service';

/** Request-reply handlers for the gateway's campaign routes (CONTRACT.md §15). */
@Controller()
export class CampaignsRpcController {
  constructor(private readonly campaigns: CampaignsService) {}

  @MessagePattern('campaigns.create')
  create(@Payload() req: RpcRequest<'campaigns.create'>): Promise<RpcResponse<'campaigns.create'>> {
    return this.campaigns.create(req.tenant_id, req.body);
  }

  @MessagePattern('campaigns.list')
  list(@Payload() req: RpcRequest<'campaigns.list'>): Promise<RpcResponse<'campaigns.list'>> {
    return this.campaigns.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('campaigns.get')
  get(@Payload() req: RpcRequest<'campaigns.get'>): Promise<RpcResponse<'campaigns.get'>> {
    return this.campaigns.get(req.tenant_id, req.id);
  }

  @MessagePattern('campaigns.transition')
  transition(@Payload() req: RpcRequest<'campaigns.transition'>): Promise<RpcResponse<'campaigns.transition'>> {
    return this.campaigns.transition(req.tenant_id, req.id, req.action);
  }

  @MessagePattern('campaigns.recipients')
  recipients(@Payload() req: RpcRequest<'campaigns.recipients'>): Promise<RpcResponse<'campaigns.recipients'>> {
    return this.campaigns.recipients(req.tenant_id, req.id, req.limit, req.cursor, req.status);
  }

  @MessagePattern('campaigns.sends-per-minute')
  sendsPerMinute(@Payload() req: RpcRequest<'campaigns.sends-per-minute'>): Promise<RpcResponse<'campaigns.sends-per-minute'>> {
    return this.campaigns.sendsPerMinute(req.tenant_id, req.id);
  }
}
