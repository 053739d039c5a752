import { PLANS, type Plan } from '@parley/contracts';
import { IsIn } from 'class-validator';

/** Body of `PATCH /admin/v1/tenants/{tenant_id}` (CONTRACT.md §8). */
export class UpdateTenantPlanBody {
  @IsIn(PLANS, { message: `plan must be one of: ${PLANS.join(', ')}` })
  plan!: Plan;
}
