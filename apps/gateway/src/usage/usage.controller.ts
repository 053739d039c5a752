import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Tenant } from '../http/request-context';
import { UsageService, type UsageRecord } from './usage.service';

@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  get(@Tenant() tenantId: string, @Req() request: FastifyRequest): Promise<UsageRecord> {
    return this.usage.usage(tenantId, request.quota);
  }
}
