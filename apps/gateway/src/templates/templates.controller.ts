import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CreateTemplateBody, type Page, type TemplateRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

const TemplateId = new PrefixedIdPipe('tpl', 'Template');

/** A submission calls the provider's Graph API (10 s limit in messaging-service), so it gets more than the default. */
const SUBMIT_TIMEOUT_MS = 20_000;

/** Message templates (CONTRACT.md §13), owned by messaging-service with the channels they live on. */
@Controller('api/v1/templates')
export class TemplatesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'Submit a message template for review',
    description: 'Created on `channel_id` (default: the default channel) and submitted to the provider: `PENDING` until its review notification moves it to `APPROVED` or `REJECTED` (with `reason`), announced as `template.status`.',
    access: 'tenant',
    body: CreateTemplateBody,
    success: { status: 201, description: 'Submitted, PENDING.', schema: 'Template' },
    errors: [409, 503],
  })
  @Post()
  @Requires('templates.manage')
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateTemplateBody, @RequestId() requestId: string): Promise<TemplateRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('templates.create', { tenant_id: tenantId, body: request }, { requestId, timeoutMs: SUBMIT_TIMEOUT_MS });
  }

  @ApiRoute({ summary: 'List message templates', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of templates, newest first.', schema: 'TemplatePage' } })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<TemplateRecord>> {
    return this.rpc.request('templates.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a message template and its review status', access: 'tenant', success: { status: 200, description: 'The template.', schema: 'Template' }, errors: [404] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', TemplateId) templateId: string, @RequestId() requestId: string): Promise<TemplateRecord> {
    return this.rpc.request('templates.get', { tenant_id: tenantId, template_id: templateId }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a message template (here and at the provider)', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @Requires('templates.manage')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('id', TemplateId) templateId: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('templates.delete', { tenant_id: tenantId, template_id: templateId }, { requestId, timeoutMs: SUBMIT_TIMEOUT_MS });
  }
}
