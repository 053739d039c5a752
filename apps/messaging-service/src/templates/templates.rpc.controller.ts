import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { TemplatesService } from './templates.service';

/** Request-reply handlers for the gateway's template routes and the send-time check (CONTRACT.md §12, §13). */
@Controller()
export class TemplatesRpcController {
  constructor(private readonly templates: TemplatesService) {}

  @MessagePattern('templates.create')
  create(@Payload() req: RpcRequest<'templates.create'>): Promise<RpcResponse<'templates.create'>> {
    return this.templates.create(req.tenant_id, req.body);
  }

  @MessagePattern('templates.list')
  list(@Payload() req: RpcRequest<'templates.list'>): Promise<RpcResponse<'templates.list'>> {
    return this.templates.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('templates.get')
  get(@Payload() req: RpcRequest<'templates.get'>): Promise<RpcResponse<'templates.get'>> {
    return this.templates.get(req.tenant_id, req.template_id);
  }

  @MessagePattern('templates.delete')
  async remove(@Payload() req: RpcRequest<'templates.delete'>): Promise<RpcResponse<'templates.delete'>> {
    await this.templates.remove(req.tenant_id, req.template_id);
    return { deleted: true };
  }

  @MessagePattern('templates.check-send')
  checkSend(@Payload() req: RpcRequest<'templates.check-send'>): Promise<RpcResponse<'templates.check-send'>> {
    return this.templates.checkSend(req.tenant_id, req.to, req.from, req.template);
  }
}
