import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RpcRequest, RpcResponse, UsageDayRecord } from '@parley/contracts';
import { DataSource } from 'typeorm';

/** The tenant's metered usage per day (`GET /api/v1/billing/usage`), what the dashboard charts. */
@Controller()
export class UsageRpcController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @MessagePattern('billing.usage')
  async usage(@Payload() req: RpcRequest<'billing.usage'>): Promise<RpcResponse<'billing.usage'>> {
    const days = Math.min(Math.max(Math.trunc(req.days) || 30, 1), 366);
    const rows = (await this.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, channel, category, quantity::float8 AS quantity FROM usage_daily
        WHERE tenant_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int ORDER BY day, channel, category`,
      [req.tenant_id, days],
    )) as UsageDayRecord[];
    return { data: rows };
  }
}
