import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateCompanyBody, UpdateCompanyBody, type CompanyRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ListQueryDto, pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';

const CompanyId = new PrefixedIdPipe('cmp', 'Company');

/** Companies (CONTRACT.md §14), owned by crm-service; contacts link to them by `company_id`. */
@Controller('api/v1/companies')
export class CompaniesController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({ summary: 'Create a company', access: 'tenant', body: CreateCompanyBody, success: { status: 201, description: 'Created.', schema: 'Company' }, errors: [503] })
  @Post()
  @HttpCode(201)
  create(@Tenant() tenantId: string, @Body() body: CreateCompanyBody, @RequestId() requestId: string): Promise<CompanyRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('companies.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'List companies', access: 'tenant', query: ListQueryDto, success: { status: 200, description: 'A page of companies, newest first.', schema: 'CompanyPage' }, errors: [503] })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: ListQueryDto, @RequestId() requestId: string): Promise<Page<CompanyRecord>> {
    return this.rpc.request('companies.list', { tenant_id: tenantId, ...pageOf(query) }, { requestId });
  }

  @ApiRoute({ summary: 'Get a company', access: 'tenant', success: { status: 200, description: 'The company.', schema: 'Company' }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', CompanyId) id: string, @RequestId() requestId: string): Promise<CompanyRecord> {
    return this.rpc.request('companies.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Change a company',
    description: 'Only the fields given change; `domain: null` clears it; `attributes` is replaced whole.',
    access: 'tenant',
    body: UpdateCompanyBody,
    success: { status: 200, description: 'The company as it now is.', schema: 'Company' },
    errors: [404, 503],
  })
  @Patch(':id')
  update(@Tenant() tenantId: string, @Param('id', CompanyId) id: string, @Body() body: UpdateCompanyBody, @RequestId() requestId: string): Promise<CompanyRecord> {
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('companies.update', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a company', description: 'Its contacts stay, without `company_id`.', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('id', CompanyId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('companies.delete', { tenant_id: tenantId, id }, { requestId });
  }
}
