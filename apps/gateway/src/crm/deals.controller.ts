import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateDealBody, UpdateDealBody, validationProblem, type DealView, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { TeamService } from '../identity/team/team.service';
import { DealListQueryDto } from './deal-list-query.dto';

const DealId = new PrefixedIdPipe('del', 'Deal');

/** Deals (CONTRACT.md §14), owned by crm-service. */
@Controller('api/v1/deals')
export class DealsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly team: TeamService,
  ) {}

  @ApiRoute({
    summary: 'Create a deal',
    description:
      'In `pipeline_id` (default: the default pipeline) at `stage` (default: its first). `value.amount` is a decimal string (up to 15 digits and 4 decimals, kept exactly), `value.currency` an ISO 4217 code. `contact_id`, `company_id` and `pipeline_id` must be this tenant’s (400 naming the field). `owner` must be a member of the team. A captured lead opens a deal by itself. Announced as `deal.created`.',
    access: 'tenant',
    body: CreateDealBody,
    success: { status: 201, description: 'Created.', schema: 'Deal' },
    errors: [503],
  })
  @Post()
  @HttpCode(201)
  async create(@Tenant() tenantId: string, @Body() body: CreateDealBody, @RequestId() requestId: string): Promise<DealView> {
    if (body.owner) await this.checkOwner(tenantId, body.owner);
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('deals.create', { tenant_id: tenantId, body: request }, { requestId });
  }

  @ApiRoute({
    summary: 'List deals',
    description: '`pipeline_id`, `stage` and `contact_id` narrow the list. Newest first.',
    access: 'tenant',
    query: DealListQueryDto,
    success: { status: 200, description: 'A page of deals, newest first.', schema: 'DealPage' },
    errors: [503],
  })
  @Get()
  list(@Tenant() tenantId: string, @Query() query: DealListQueryDto, @RequestId() requestId: string): Promise<Page<DealView>> {
    const { pipeline_id, stage, contact_id } = query;
    return this.rpc.request('deals.list', { tenant_id: tenantId, ...pageOf(query), pipeline_id, stage, contact_id }, { requestId });
  }

  @ApiRoute({ summary: 'Get a deal', access: 'tenant', success: { status: 200, description: 'The deal.', schema: 'Deal' }, errors: [404, 503] })
  @Get(':id')
  get(@Tenant() tenantId: string, @Param('id', DealId) id: string, @RequestId() requestId: string): Promise<DealView> {
    return this.rpc.request('deals.get', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Change a deal (move it to another stage)',
    description: 'Only the fields given change; `null` clears `company_id`, `value` or `owner`. A new `stage` must be one of the deal’s pipeline’s (400 otherwise) and is announced as `deal.stage_changed`.',
    access: 'tenant',
    body: UpdateDealBody,
    success: { status: 200, description: 'The deal as it now is.', schema: 'Deal' },
    errors: [404, 503],
  })
  @Patch(':id')
  async update(@Tenant() tenantId: string, @Param('id', DealId) id: string, @Body() body: UpdateDealBody, @RequestId() requestId: string): Promise<DealView> {
    if (body.owner) await this.checkOwner(tenantId, body.owner);
    const { tenant_id: _tenant, ...request } = body;
    return this.rpc.request('deals.update', { tenant_id: tenantId, id, body: request }, { requestId });
  }

  @ApiRoute({ summary: 'Delete a deal', access: 'tenant', success: { status: 204, description: 'Deleted.' }, errors: [404, 503] })
  @Delete(':id')
  @HttpCode(204)
  async remove(@Tenant() tenantId: string, @Param('id', DealId) id: string, @RequestId() requestId: string): Promise<void> {
    await this.rpc.request('deals.delete', { tenant_id: tenantId, id }, { requestId });
  }

  /** The team lives here (the gateway owns members): an owner of another tenant, or none at all, is refused. */
  private async checkOwner(tenantId: string, memberId: string): Promise<void> {
    const found = await this.team.get(tenantId, memberId).then(
      () => true,
      () => false,
    );
    if (!found) throw new ProblemException(validationProblem([{ field: 'owner', message: `owner ${memberId} is not a member of this team` }]));
  }
}
