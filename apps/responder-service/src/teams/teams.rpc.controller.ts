import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { TeamsService } from './teams.service';

/** Request-reply handlers for the gateway's team, routing-rule and presence routes (CONTRACT.md §18). */
@Controller()
export class TeamsRpcController {
  constructor(private readonly teams: TeamsService) {}

  @MessagePattern('teams.create')
  create(@Payload() req: RpcRequest<'teams.create'>): Promise<RpcResponse<'teams.create'>> {
    return this.teams.create(req.tenant_id, req.body);
  }

  @MessagePattern('teams.list')
  list(@Payload() req: RpcRequest<'teams.list'>): Promise<RpcResponse<'teams.list'>> {
    return this.teams.list(req.tenant_id);
  }

  @MessagePattern('teams.get')
  get(@Payload() req: RpcRequest<'teams.get'>): Promise<RpcResponse<'teams.get'>> {
    return this.teams.get(req.tenant_id, req.id);
  }

  @MessagePattern('teams.update')
  update(@Payload() req: RpcRequest<'teams.update'>): Promise<RpcResponse<'teams.update'>> {
    return this.teams.update(req.tenant_id, req.id, req.body);
  }

  @MessagePattern('teams.delete')
  async delete(@Payload() req: RpcRequest<'teams.delete'>): Promise<RpcResponse<'teams.delete'>> {
    await this.teams.delete(req.tenant_id, req.id);
    return { deleted: true };
  }

  @MessagePattern('routing-rules.list')
  rules(@Payload() req: RpcRequest<'routing-rules.list'>): Promise<RpcResponse<'routing-rules.list'>> {
    return this.teams.rules(req.tenant_id);
  }

  @MessagePattern('routing-rules.replace')
  replaceRules(@Payload() req: RpcRequest<'routing-rules.replace'>): Promise<RpcResponse<'routing-rules.replace'>> {
    return this.teams.replaceRules(req.tenant_id, req.body);
  }

  @MessagePattern('presence.set')
  setPresence(@Payload() req: RpcRequest<'presence.set'>): Promise<RpcResponse<'presence.set'>> {
    return this.teams.setPresence(req.tenant_id, req.member_id, req.status);
  }

  @MessagePattern('presence.seen')
  seen(@Payload() req: RpcRequest<'presence.seen'>): Promise<RpcResponse<'presence.seen'>> {
    return this.teams.seen(req.tenant_id, req.member_id);
  }

  @MessagePattern('presence.list')
  presence(@Payload() req: RpcRequest<'presence.list'>): Promise<RpcResponse<'presence.list'>> {
    return this.teams.presence(req.tenant_id);
  }
}
