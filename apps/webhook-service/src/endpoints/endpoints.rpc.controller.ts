import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { EndpointsService } from './endpoints.service';

/** Request-reply handlers for the gateway's webhook settings routes (CONTRACT.md §5). */
@Controller()
export class EndpointsRpcController {
  constructor(private readonly endpoints: EndpointsService) {}

  @MessagePattern('webhooks.create')
  create(@Payload() req: RpcRequest<'webhooks.create'>): Promise<RpcResponse<'webhooks.create'>> {
    return this.endpoints.create(req.tenant_id, req.body);
  }

  @MessagePattern('webhooks.list')
  list(@Payload() req: RpcRequest<'webhooks.list'>): Promise<RpcResponse<'webhooks.list'>> {
    return this.endpoints.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('webhooks.get')
  get(@Payload() req: RpcRequest<'webhooks.get'>): Promise<RpcResponse<'webhooks.get'>> {
    return this.endpoints.get(req.tenant_id, req.id);
  }

  @MessagePattern('webhooks.update')
  update(@Payload() req: RpcRequest<'webhooks.update'>): Promise<RpcResponse<'webhooks.update'>> {
    return this.endpoints.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('webhooks.delete')
  async delete(@Payload() req: RpcRequest<'webhooks.delete'>): Promise<RpcResponse<'webhooks.delete'>> {
    await this.endpoints.delete(req.tenant_id, req.id);
    return { deleted: true };
  }

  @MessagePattern('webhooks.get-secret')
  getSecret(@Payload() req: RpcRequest<'webhooks.get-secret'>): Promise<RpcResponse<'webhooks.get-secret'>> {
    return this.endpoints.getSecret(req.tenant_id, req.id);
  }

  @MessagePattern('webhooks.rotate-secret')
  rotateSecret(@Payload() req: RpcRequest<'webhooks.rotate-secret'>): Promise<RpcResponse<'webhooks.rotate-secret'>> {
    return this.endpoints.rotateSecret(req.tenant_id, req.id);
  }
}
