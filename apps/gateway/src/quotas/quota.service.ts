import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { Plan } from '../accounts/tenant.entity';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { throttledWarning } from '../redis/throttled-warning';
import { DAY_SECONDS, nextUtcMidnight, secondsUntilReset, utcDay } from './quota-window';

/** Where a tenant stands today, after counting the current request. */
export interface QuotaState {
  plan: Plan;
  /** Requests allowed per UTC day; null when the plan is unlimited. */
  limit: number | null;
  /** Requests counted today, this one included. */
  used: number;
  resetsAt: Date;
  secondsToReset: number;
}

const POLICY = 'daily';

/**
 * The daily request quota (CONTRACT.md §8), counted in Redis so every gateway instance shares one counter per tenant
 * and day: one MULTI round trip (INCR, and EXPIREAT at the next UTC midnight so a day's counter cleans itself up).
 * Every plan is counted (so `/api/v1/usage` is true for all), but only a limited plan is refused or told its limit.
 */
@Injectable()
export class QuotaService {
  private readonly warn = throttledWarning(new Logger(QuotaService.name));

  constructor(
    private readonly redis: RedisService,
    private readonly config: GatewayConfig,
  ) {}

  limitOf(plan: Plan): number | null {
    return plan === 'free' ? this.config.FREE_PLAN_DAILY_LIMIT : null;
  }

  /**
   * Counts one request. Resolves with the state, or null when Redis cannot be reached: the quota then fails open (a
   * Redis outage must not take the API down with it; the counters are a business limit, not a safety one).
   */
  async consume(tenantId: string, plan: Plan, now = new Date()): Promise<QuotaState | null> {
    const key = this.key(tenantId, now);
    try {
      const results = await this.redis.client
        .multi()
        .incr(key)
        .expireat(key, Math.floor(nextUtcMidnight(now).getTime() / 1000))
        .exec();
      const [err, used] = results?.[0] ?? [new Error('transaction discarded'), null];
      if (err) throw err;
      return this.state(plan, Number(used), now);
    } catch (err) {
      this.warn(`quota of ${tenantId} not counted (failing open): ${String(err)}`);
      return null;
    }
  }

  /** Today's state without counting (for when the counter was not read on the way in). */
  async peek(tenantId: string, plan: Plan, now = new Date()): Promise<QuotaState> {
    const used = Number((await this.redis.client.get(this.key(tenantId, now))) ?? 0);
    return this.state(plan, used, now);
  }

  /** The IETF RateLimit fields for an answer (draft-ietf-httpapi-ratelimit-headers); none for an unlimited plan. */
  headers(state: QuotaState): Record<string, string> {
    if (state.limit === null) return {};
    const remaining = Math.max(0, state.limit - state.used);
    return {
      'ratelimit-policy': `"${POLICY}";q=${state.limit};w=${DAY_SECONDS}`,
      ratelimit: `"${POLICY}";r=${remaining};t=${state.secondsToReset}`,
    };
  }

  /** Throws the 429 problem when the request just counted is over the limit. */
  enforce(state: QuotaState): void {
    if (state.limit === null || state.used <= state.limit) return;
    throw new ProblemException(
      problem(
        429,
        ProblemTypes.quotaExceeded,
        'Quota Exceeded',
        `The ${state.plan} plan allows ${state.limit} requests per UTC day; the quota resets at ${state.resetsAt.toISOString()}.`,
      ),
      { ...this.headers(state), 'retry-after': String(state.secondsToReset) },
    );
  }

  private state(plan: Plan, used: number, now: Date): QuotaState {
    return { plan, limit: this.limitOf(plan), used, resetsAt: nextUtcMidnight(now), secondsToReset: secondsUntilReset(now) };
  }

  private key(tenantId: string, now: Date): string {
    return `${this.redis.prefix}quota:${tenantId}:${utcDay(now)}`;
  }
}
