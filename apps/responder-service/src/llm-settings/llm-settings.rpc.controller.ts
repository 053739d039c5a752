import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { LlmSettingsService } from './llm-settings.service';
import { TenantLlms } from './tenant-llms';

/** A tenant's own LLM settings (issue 23 item 7), asked by the gateway. */
@Controller()
export class LlmSettingsRpcController {
  constructor(
    private readonly settings: LlmSettingsService,
    private readonly choices: TenantLlms,
  ) {}

  // A change answers from this instance's next reply (other instances' within TENANT_LLM_TTL_MS).
  @MessagePattern('llm-settings.put')
  async put(@Payload() req: RpcRequest<'llm-settings.put'>): Promise<RpcResponse<'llm-settings.put'>> {
    const record = await this.settings.put(req.tenant_id, req.settings);
    this.choices.forget(req.tenant_id);
    return record;
  }

  @MessagePattern('llm-settings.get')
  get(@Payload() req: RpcRequest<'llm-settings.get'>): Promise<RpcResponse<'llm-settings.get'>> {
    return this.settings.get(req.tenant_id);
  }

  @MessagePattern('llm-settings.delete')
  async delete(@Payload() req: RpcRequest<'llm-settings.delete'>): Promise<RpcResponse<'llm-settings.delete'>> {
    const deleted = await this.settings.delete(req.tenant_id);
    this.choices.forget(req.tenant_id);
    return { deleted };
  }
}
