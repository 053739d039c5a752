import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ConversationsService } from './conversations.service';

/** Conversation reads and release (CONTRACT.md §9). */
@Controller()
export class ConversationsRpcController {
  constructor(private readonly conversations: ConversationsService) {}

  @MessagePattern('conversations.list')
  list(@Payload() req: RpcRequest<'conversations.list'>): Promise<RpcResponse<'conversations.list'>> {
    return this.conversations.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('conversations.get')
  get(@Payload() req: RpcRequest<'conversations.get'>): Promise<RpcResponse<'conversations.get'>> {
    return this.conversations.get(req.tenant_id, req.id);
  }

  @MessagePattern('conversations.release')
  release(@Payload() req: RpcRequest<'conversations.release'>): Promise<RpcResponse<'conversations.release'>> {
    return this.conversations.release(req.tenant_id, req.id);
  }
}
