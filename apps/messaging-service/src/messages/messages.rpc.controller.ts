import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { MessagesService } from './messages.service';

/** Request-reply handlers for the gateway's message routes (CONTRACT.md §4). */
@Controller()
export class MessagesRpcController {
  constructor(private readonly messages: MessagesService) {}

  @MessagePattern('messages.get')
  get(@Payload() req: RpcRequest<'messages.get'>): Promise<RpcResponse<'messages.get'>> {
    return this.messages.get(req.tenant_id, req.message_id);
  }

  @MessagePattern('messages.statuses')
  statuses(@Payload() req: RpcRequest<'messages.statuses'>): Promise<RpcResponse<'messages.statuses'>> {
    return this.messages.statuses(req.tenant_id, req.message_ids);
  }

  @MessagePattern('messages.list')
  list(@Payload() req: RpcRequest<'messages.list'>): Promise<RpcResponse<'messages.list'>> {
    const { tenant_id, ...query } = req;
    return this.messages.list(tenant_id, query);
  }
}
