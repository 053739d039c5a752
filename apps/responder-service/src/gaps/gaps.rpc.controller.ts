import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { GapsService } from './gaps.service';

/** Request-reply handlers for the gateway's knowledge-gap and feedback routes (CONTRACT.md §19). */
@Controller()
export class GapsRpcController {
  constructor(private readonly gaps: GapsService) {}

  @MessagePattern('gaps.list')
  list(@Payload() req: RpcRequest<'gaps.list'>): Promise<RpcResponse<'gaps.list'>> {
    return this.gaps.list(req.tenant_id, req.agent, req.state, req.limit, req.cursor);
  }

  @MessagePattern('gaps.get')
  get(@Payload() req: RpcRequest<'gaps.get'>): Promise<RpcResponse<'gaps.get'>> {
    return this.gaps.get(req.tenant_id, req.agent, req.id);
  }

  @MessagePattern('gaps.close')
  close(@Payload() req: RpcRequest<'gaps.close'>): Promise<RpcResponse<'gaps.close'>> {
    return this.gaps.close(req.tenant_id, req.agent, req.id, req.answer);
  }

  @MessagePattern('gaps.dismiss')
  dismiss(@Payload() req: RpcRequest<'gaps.dismiss'>): Promise<RpcResponse<'gaps.dismiss'>> {
    return this.gaps.dismiss(req.tenant_id, req.agent, req.id);
  }

  @MessagePattern('conversations.feedback')
  feedback(@Payload() req: RpcRequest<'conversations.feedback'>): Promise<RpcResponse<'conversations.feedback'>> {
    return this.gaps.feedback(req.tenant_id, req.id, req.message_id, req.verdict, req.note, req.actor);
  }
}
