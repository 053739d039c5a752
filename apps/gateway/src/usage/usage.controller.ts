import { Controller, Get, Req } from '@nestjs/common';
import type { UsageRecord } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';
import { Tenant } from '../http/request-context';
import { UsageService } from './usage.service';
import { ApiRoute } from '../openapi/api-route.decorator';

@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @ApiRoute({ summary: 'Today’s usage against the plan’s daily quota', access: 'tenant', success: { status: 200, description: 'The usage.', schema: 'Usage' } })
  @Get()
  get(@Tenant() tenantId: string, @Req() request: FastifyRequest): Promise<UsageRecord> {
    return this.usage.usage(tenantId, request.quota);
  }
}
