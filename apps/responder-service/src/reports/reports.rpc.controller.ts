import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { ReportsService } from './reports.service';

/** Request-reply handlers for the gateway's report routes (CONTRACT.md §18). */
@Controller()
export class ReportsRpcController {
  constructor(private readonly reports: ReportsService) {}

  @MessagePattern('reports.conversations')
  conversations(@Payload() req: RpcRequest<'reports.conversations'>): Promise<RpcResponse<'reports.conversations'>> {
    return this.reports.conversations(req.tenant_id, scopeOf(req), req.group_by);
  }

  @MessagePattern('reports.conversation-lines')
  lines(@Payload() req: RpcRequest<'reports.conversation-lines'>): Promise<RpcResponse<'reports.conversation-lines'>> {
    return this.reports.lines(req.tenant_id, scopeOf(req), req.limit, req.cursor);
  }
}

function scopeOf(req: RpcRequest<'reports.conversations'> | RpcRequest<'reports.conversation-lines'>) {
  return { from: req.from, to: req.to, tz: req.tz, member: req.member ?? null };
}
