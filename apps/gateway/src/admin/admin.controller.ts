import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { ProblemTypes, Topics, notFoundProblem, problem, type TenantPlanChangedData, type TenantPlanRecord } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { PrefixedIdPipe } from '../http/param-pipes';
import { TenantPlansService } from '../identity/tenants/tenant-plans.service';
import { AdminGuard } from './admin.guard';
import { UpdateTenantPlanBody } from './update-plan.dto';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Operator routes. Not under `/api/v1`, so the tenant AuthGuard and quota leave them alone. */
@Controller('admin/v1/tenants')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly plans: TenantPlansService,
    private readonly publisher: EventPublisher,
  ) {}

  /** Changes a tenant's plan; every gateway instance applies it to the next request, and billing-service prices by it. */
  @ApiRoute({ summary: 'Change a tenant’s plan (operators)', access: 'admin', body: UpdateTenantPlanBody, success: { status: 200, description: 'The tenant and its plan.', schema: 'TenantPlan' }, errors: [404] })
  @Patch(':tenant_id')
  async updatePlan(
    @Param('tenant_id', new PrefixedIdPipe('ten', 'Tenant')) tenantId: string,
    @Body() body: UpdateTenantPlanBody,
  ): Promise<TenantPlanRecord> {
    if (!(await this.plans.setPlan(tenantId, body.plan))) throw new ProblemException(notFoundProblem(`Tenant "${tenantId}"`));
    const data: TenantPlanChangedData = { tenant_id: tenantId, plan: body.plan, at: new Date().toISOString() };
    try {
      await this.publisher.publishEvent(EventPublisher.envelope(Topics.TenantPlanChanged, tenantId, data), tenantId, undefined, { timeoutMs: 2000 });
    } catch {
      // The plan is set here; the operator's retry (the same PATCH) tells billing-service.
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The plan is changed, but billing could not be told; retry.'), { 'retry-after': '5' });
    }
    return { tenant_id: tenantId, plan: body.plan };
  }
}
