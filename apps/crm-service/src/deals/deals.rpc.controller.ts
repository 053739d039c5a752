import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { DealsService } from './deals.service';

/** Request-reply handlers for the gateway's deal routes (CONTRACT.md §14). */
@Controller()
export class DealsRpcController {
  constructor(private readonly deals: DealsService) {}

  @MessagePattern('deals.create')
  create(@Payload() req: RpcRequest<'deals.create'>): Promise<RpcResponse<'deals.create'>> {
    return this.deals.create(req.tenant_id, req.body);
  }

  @MessagePattern('deals.list')
  list(@Payload() req: RpcRequest<'deals.list'>): Promise<RpcResponse<'deals.list'>> {
    const { pipeline_id, stage, contact_id } = req;
    return this.deals.list(req.tenant_id, req.limit, req.cursor, { pipeline_id, stage, contact_id });
  }

  @MessagePattern('deals.get')
  get(@Payload() req: RpcRequest<'deals.get'>): Promise<RpcResponse<'deals.get'>> {
    return this.deals.get(req.tenant_id, req.id);
  }

  @MessagePattern('deals.update')
  update(@Payload() req: RpcRequest<'deals.update'>): Promise<RpcResponse<'deals.update'>> {
    return this.deals.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('deals.delete')
  async delete(@Payload() req: RpcRequest<'deals.delete'>): Promise<RpcResponse<'deals.delete'>> {
    await this.deals.delete(req.tenant_id, req.id);
    return { deleted: true };
  }
}
