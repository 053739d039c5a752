import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse } from '@parley/contracts';
import { MeteringStore } from './metering.store';

/** The tenant's metered usage per day (`GET /api/v1/billing/usage`), what the dashboard charts. */
@Controller()
export class UsageRpcController {
  constructor(private readonly store: MeteringStore) {}

  @MessagePattern('billing.usage')
  async usage(@Payload() req: RpcRequest<'billing.usage'>): Promise<RpcResponse<'billing.usage'>> {
    const days = Math.min(Math.max(Math.trunc(req.days) || 30, 1), 366);
    return { data: await this.store.usageByDay(req.tenant_id, days) };
  }
}
