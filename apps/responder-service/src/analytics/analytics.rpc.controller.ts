import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { AgentAnalyticsService } from './agent-analytics.service';

/** Request-reply handler for the gateway's agent analytics route (CONTRACT.md §19). */
@Controller()
export class AnalyticsRpcController {
  constructor(private readonly analytics: AgentAnalyticsService) {}

  @MessagePattern('analytics.agent')
  agent(@Payload() req: RpcRequest<'analytics.agent'>): Promise<RpcResponse<'analytics.agent'>> {
    return this.analytics.of(req.tenant_id, req.agent, { from: req.from, to: req.to, tz: req.tz });
  }
}
