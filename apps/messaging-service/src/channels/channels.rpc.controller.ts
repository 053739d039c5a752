import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ChannelsService } from './channels.service';

/** Request-reply handlers for the gateway's channel needs (CONTRACT.md §2, §4, §6). */
@Controller()
export class ChannelsRpcController {
  constructor(private readonly channels: ChannelsService) {}

  @MessagePattern('channels.provision-sandbox')
  provisionSandbox(@Payload() req: RpcRequest<'channels.provision-sandbox'>): Promise<RpcResponse<'channels.provision-sandbox'>> {
    return this.channels.provisionSandbox(req.tenant_id);
  }

  @MessagePattern('channels.list')
  list(@Payload() req: RpcRequest<'channels.list'>): Promise<RpcResponse<'channels.list'>> {
    return this.channels.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('channels.resolve-sender')
  resolveSender(@Payload() req: RpcRequest<'channels.resolve-sender'>): Promise<RpcResponse<'channels.resolve-sender'>> {
    return this.channels.resolveSender(req.tenant_id, req.phone_number);
  }
}
