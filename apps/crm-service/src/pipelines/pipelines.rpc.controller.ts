import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { PipelinesService } from './pipelines.service';

/** Request-reply handlers for the gateway's pipeline routes (CONTRACT.md §14). */
@Controller()
export class PipelinesRpcController {
  constructor(private readonly pipelines: PipelinesService) {}

  @MessagePattern('pipelines.list')
  list(@Payload() req: RpcRequest<'pipelines.list'>): Promise<RpcResponse<'pipelines.list'>> {
    return this.pipelines.list(req.tenant_id);
  }

  @MessagePattern('pipelines.create')
  create(@Payload() req: RpcRequest<'pipelines.create'>): Promise<RpcResponse<'pipelines.create'>> {
    return this.pipelines.create(req.tenant_id, req.body);
  }
}
