import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { LeadsStore } from './leads.store';

/** `GET /api/v1/leads` (CONTRACT.md §9). */
@Controller()
export class LeadsRpcController {
  constructor(private readonly leads: LeadsStore) {}

  @MessagePattern('leads.list')
  list(@Payload() req: RpcRequest<'leads.list'>): Promise<RpcResponse<'leads.list'>> {
    return this.leads.list(req.tenant_id, req.limit, req.cursor);
  }
}
