import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { MonthUsageService } from './month-usage.service';

/** This month's usage against the free allowance (`GET /api/v1/billing/usage/month`). */
@Controller()
export class MonthUsageRpcController {
  constructor(private readonly usage: MonthUsageService) {}

  @MessagePattern('billing.month-usage')
  month(@Payload() req: RpcRequest<'billing.month-usage'>): Promise<RpcResponse<'billing.month-usage'>> {
    return this.usage.month(req.tenant_id);
  }
}
