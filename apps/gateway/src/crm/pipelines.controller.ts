import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CreatePipelineBody, type PipelineRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Sales pipelines (CONTRACT.md §14), owned by crm-service. */
@Controller('api/v1/pipelines')
export class PipelinesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'List pipelines',
    description: 'Every pipeline of the tenant, the default one first (`new`, `qualified`, `proposal`, `won`, `lost`; made on first use).',
    access: 'tenant',
    success: { status: 200, description: 'The pipelines.', schema: 'PipelineList' },
    errors: [503],
  })
  @Get()
  list(@Tenant() tenantId: string, @RequestId() requestId: string): Promise<{ data: PipelineRecord[] }> {
    return this.rpc.request('pipelines.list', { tenant_id: tenantId }, { requestId });
  }

  @ApiRoute({
    summary: 'Create a pipeline',
    description: '`stages`: 1 to 20 distinct names, in order; deals open in the first. Owners and admins only.',
    access: 'tenant',
    body: CreatePipelineBody,
    success: { status: 201, description: 'Created.', schema: 'Pipeline' },
    errors: [503],
  })
  @Post()
  @HttpCode(201)
  @Requires('settings.manage')
  create(@Tenant() tenantId: string, @Body() body: CreatePipelineBody, @RequestId() requestId: string): Promise<PipelineRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('pipelines.create', { tenant_id: tenantId, body: request }, { requestId });
  }
}
