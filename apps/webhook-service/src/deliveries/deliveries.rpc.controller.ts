import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { DeliveriesService } from './deliveries.service';

/** Request-reply handlers for the gateway's delivery log and detail, test, retry and replay routes (CONTRACT.md §5). */
@Controller()
export class DeliveriesRpcController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @MessagePattern('webhooks.test')
  async test(@Payload() req: RpcRequest<'webhooks.test'>): Promise<RpcResponse<'webhooks.test'>> {
    return { accepted: true, event_id: await this.deliveries.sendTest(req.tenant_id, req.id) };
  }

  @MessagePattern('webhooks.replay')
  async replay(@Payload() req: RpcRequest<'webhooks.replay'>): Promise<RpcResponse<'webhooks.replay'>> {
    return { accepted: true, deliveries: await this.deliveries.replay(req.tenant_id, req.id, req.body) };
  }

  @MessagePattern('deliveries.list')
  list(@Payload() req: RpcRequest<'deliveries.list'>): Promise<RpcResponse<'deliveries.list'>> {
    return this.deliveries.list(req.tenant_id, req.endpoint_id, req.status, req.limit, req.cursor);
  }

  @MessagePattern('deliveries.get')
  get(@Payload() req: RpcRequest<'deliveries.get'>): Promise<RpcResponse<'deliveries.get'>> {
    return this.deliveries.get(req.tenant_id, req.endpoint_id, req.delivery_id);
  }

  @MessagePattern('deliveries.retry')
  async retry(@Payload() req: RpcRequest<'deliveries.retry'>): Promise<RpcResponse<'deliveries.retry'>> {
    await this.deliveries.retry(req.tenant_id, req.endpoint_id, req.delivery_id);
    return { accepted: true, delivery_id: req.delivery_id };
  }
}
