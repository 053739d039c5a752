import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { CannedRepliesService } from './canned-replies.service';

/** Request-reply handlers for the gateway's canned-reply routes (CONTRACT.md §18). */
@Controller()
export class CannedRepliesRpcController {
  constructor(private readonly replies: CannedRepliesService) {}

  @MessagePattern('canned-replies.create')
  create(@Payload() req: RpcRequest<'canned-replies.create'>): Promise<RpcResponse<'canned-replies.create'>> {
    return this.replies.create(req.tenant_id, req.body);
  }

  @MessagePattern('canned-replies.list')
  list(@Payload() req: RpcRequest<'canned-replies.list'>): Promise<RpcResponse<'canned-replies.list'>> {
    return this.replies.list(req.tenant_id, req.limit, req.cursor, req.q);
  }

  @MessagePattern('canned-replies.get')
  get(@Payload() req: RpcRequest<'canned-replies.get'>): Promise<RpcResponse<'canned-replies.get'>> {
    return this.replies.get(req.tenant_id, req.id);
  }

  @MessagePattern('canned-replies.update')
  update(@Payload() req: RpcRequest<'canned-replies.update'>): Promise<RpcResponse<'canned-replies.update'>> {
    return this.replies.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('canned-replies.delete')
  async delete(@Payload() req: RpcRequest<'canned-replies.delete'>): Promise<RpcResponse<'canned-replies.delete'>> {
    await this.replies.delete(req.tenant_id, req.id);
    return { deleted: true };
  }
}
