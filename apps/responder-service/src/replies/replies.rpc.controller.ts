import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { RepliesService } from './replies.service';

/** `POST /api/v1/agents/{name}/test`: the reply computed from the responder's own read model of the agent. */
@Controller()
export class RepliesRpcController {
  constructor(private readonly replies: RepliesService) {}

  @MessagePattern('replies.preview')
  preview(@Payload() req: RpcRequest<'replies.preview'>): Promise<RpcResponse<'replies.preview'>> {
    return this.replies.preview(req.tenant_id, req.agent, req.message, req.from);
  }
}
