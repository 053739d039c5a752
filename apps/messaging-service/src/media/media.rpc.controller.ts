import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { MediaService } from './media.service';

/** Request-reply handlers of the gateway's media routes (CONTRACT.md §13). */
@Controller()
export class MediaRpcController {
  constructor(private readonly media: MediaService) {}

  @MessagePattern('media.register')
  register(@Payload() req: RpcRequest<'media.register'>): Promise<RpcResponse<'media.register'>> {
    return this.media.register(req.tenant_id, req.media);
  }

  @MessagePattern('media.get')
  get(@Payload() req: RpcRequest<'media.get'>): Promise<RpcResponse<'media.get'>> {
    return this.media.get(req.tenant_id, req.media_id);
  }
}
