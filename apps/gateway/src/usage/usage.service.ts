import { Injectable } from '@nestjs/common';
import { ProblemTypes, problem, type UsageRecord } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { QuotaService, type QuotaState } from '../quotas/quota.service';
import { TenantPlansService } from '../identity/tenants/tenant-plans.service';

@Injectable()
export class UsageService {
  constructor(
    private readonly quotas: QuotaService,
    private readonly plans: TenantPlansService,
  ) {}

  /**
   * Today's usage; `counted` is the state the AuthGuard read while counting this request, when Redis answered it (an
   * unlimited plan's count is deferred, so it is read here instead).
   */
  async usage(tenantId: string, counted: QuotaState | undefined): Promise<UsageRecord> {
    const state = counted && counted.limit !== null ? counted : await this.read(tenantId);
    return { plan: state.plan, limit: state.limit, used_today: state.used, resets_at: state.resetsAt.toISOString() };
  }

  private async read(tenantId: string): Promise<QuotaState> {
    try {
      return await this.quotas.peek(tenantId, (await this.plans.planOf(tenantId)) ?? 'free');
    } catch {
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'Usage cannot be read right now; retry shortly.'), {
        'retry-after': '5',
      });
    }
  }
}
