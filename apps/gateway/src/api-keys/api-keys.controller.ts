import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { Page } from '@parley/contracts';
import { ListQueryDto } from '../http/list-query.dto';
import { Tenant } from '../http/request-context';
import { CreateApiKeyBody } from './create-api-key.dto';
import type { ApiKeyRecord, CreatedApiKey } from './api-keys.mapper';
import { ApiKeysService } from './api-keys.service';

@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateApiKeyBody): Promise<CreatedApiKey> {
    return this.keys.create(tenantId, body.name ?? null);
  }

  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto): Promise<Page<ApiKeyRecord>> {
    return this.keys.list(tenantId, query.limit, query.cursor ?? null);
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@Tenant() tenantId: string, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(tenantId, id);
  }
}
