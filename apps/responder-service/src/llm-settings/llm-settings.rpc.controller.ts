import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { LlmSettingsService } from './llm-settings.service';

/** A tenant's own LLM settings (issue 23 item 7), asked by the gateway. */
@Controller()
export class LlmSettingsRpcController {
  constructor(private readonly settings: LlmSettingsService) {}

  @MessagePattern('llm-settings.put')
  put(@Payload() req: RpcRequest<'llm-settings.put'>): Promise<RpcResponse<'llm-settings.put'>> {
    return this.settings.put(req.tenant_id, req.settings);
  }

  @MessagePattern('llm-settings.get')
  get(@Payload() req: RpcRequest<'llm-settings.get'>): Promise<RpcResponse<'llm-settings.get'>> {
    return this.settings.get(req.tenant_id);
  }

  @MessagePattern('llm-settings.delete')
  async delete(@Payload() req: RpcRequest<'llm-settings.delete'>): Promise<RpcResponse<'llm-settings.delete'>> {
    return { deleted: await this.settings.delete(req.tenant_id) };
  }
}
