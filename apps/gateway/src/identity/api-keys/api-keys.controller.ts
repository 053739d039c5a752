import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { ApiKeyRecord, CreatedApiKey, Page } from '@parley/contracts';
import { ListQueryDto } from '../../http/list-query.dto';
import { Tenant } from '../../http/request-context';
import { CreateApiKeyBody } from './create-api-key.dto';
import { ApiKeysService } from './api-keys.service';
import { ApiRoute } from '../../openapi/api-route.decorator';
import { Requires } from '../auth/permissions';

@Controller('api/v1/api-keys')
@Requires('credentials.manage')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @ApiRoute({ summary: 'Create an API key (shown once)', access: 'tenant', body: CreateApiKeyBody, success: { status: 201, description: 'The key, with its secret this once.', schema: 'CreatedApiKey' } })
  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateApiKeyBody): Promise<CreatedApiKey> {
    return this.keys.create(tenantId, body.name ?? null);
  }

  @ApiRoute({ summary: 'List API keys (no secrets)', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of keys.', schema: 'ApiKeyPage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto): Promise<Page<ApiKeyRecord>> {
    return this.keys.list(tenantId, query.limit, query.cursor ?? null);
  }

  @ApiRoute({ summary: 'Revoke an API key (refused everywhere within 5 s)', access: 'tenant', success: { status: 204, description: 'Revoked.' }, errors: [404] })
  @Delete(':id')
  @HttpCode(204)
  async revoke(@Tenant() tenantId: string, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(tenantId, id);
  }
}
