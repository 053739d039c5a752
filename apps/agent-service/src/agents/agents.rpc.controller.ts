import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { KafkaContext } from '@parley/kafka';
import { AgentsService } from './agents.service';

/** Request-reply handlers for the gateway's agent routes (CONTRACT.md §3). */
@Controller()
export class AgentsRpcController {
  constructor(private readonly agents: AgentsService) {}

  @MessagePattern('agents.upsert')
  upsert(@Payload() req: RpcRequest<'agents.upsert'>, @Ctx() ctx: KafkaContext): Promise<RpcResponse<'agents.upsert'>> {
    return this.agents.upsert(req.tenant_id, req.name, req.body, ctx.requestId);
  }

  @MessagePattern('agents.get')
  get(@Payload() req: RpcRequest<'agents.get'>): Promise<RpcResponse<'agents.get'>> {
    return this.agents.get(req.tenant_id, req.name);
  }

  @MessagePattern('agents.list')
  list(@Payload() req: RpcRequest<'agents.list'>): Promise<RpcResponse<'agents.list'>> {
    return this.agents.list(req.tenant_id, req.limit, req.cursor);
  }

  @MessagePattern('agents.versions')
  versions(@Payload() req: RpcRequest<'agents.versions'>): Promise<RpcResponse<'agents.versions'>> {
    return this.agents.versions(req.tenant_id, req.name, req.limit, req.cursor);
  }

  @MessagePattern('agents.version')
  version(@Payload() req: RpcRequest<'agents.version'>): Promise<RpcResponse<'agents.version'>> {
    return this.agents.version(req.tenant_id, req.name, req.version);
  }

  @MessagePattern('agents.add-faqs')
  addFaqs(@Payload() req: RpcRequest<'agents.add-faqs'>, @Ctx() ctx: KafkaContext): Promise<RpcResponse<'agents.add-faqs'>> {
    return this.agents.addFaqs(req.tenant_id, req.name, req.faqs, ctx.requestId);
  }

  @MessagePattern('agents.delete')
  async delete(@Payload() req: RpcRequest<'agents.delete'>, @Ctx() ctx: KafkaContext): Promise<RpcResponse<'agents.delete'>> {
    await this.agents.delete(req.tenant_id, req.name, ctx.requestId);
    return { deleted: true };
  }
}
