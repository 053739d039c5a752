import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { throttledWarning } from '../redis/throttled-warning';
import { DAY_SECONDS, nextUtcMidnight, secondsUntilReset, utcDay } from './quota-window';

/** Where a team member's session stands today, after counting the current request. */
export interface MemberQuotaState {
  limit: number;
  used: number;
  secondsToReset: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A team member's allowance after counting this request (member sessions do not spend the tenant's quota). */
    memberQuota?: MemberQuotaState;
  }
}

const POLICY = 'member-daily';

/**
 * Requests made with a team member's session (CONTRACT.md §12) do not spend the tenant's API quota (§8): a person
 * clicking through the dashboard must not use up what the tenant's programs may send. They are limited per member
 * instead, generously (`MEMBER_DAILY_REQUEST_LIMIT` per UTC day), with the same RateLimit fields under their own
 * policy name. Counted in Redis like the quota; fails open when Redis is away.
 */
@Injectable()
export class MemberQuotaService {
  private readonly warn = throttledWarning(new Logger(MemberQuotaService.name));

  constructor(
    private readonly redis: RedisService,
    private readonly config: GatewayConfig,
  ) {}

  async consume(memberId: string, now = new Date()): Promise<MemberQuotaState | null> {
    const key = `${this.redis.prefix}member-quota:${memberId}:${utcDay(now)}`;
    try {
      const results = await this.redis.client
        .multi()
        .incr(key)
        .expireat(key, Math.floor(nextUtcMidnight(now).getTime() / 1000))
        .exec();
      const [err, used] = results?.[0] ?? [new Error('transaction discarded'), null];
      if (err) throw err;
      return { limit: this.config.MEMBER_DAILY_REQUEST_LIMIT, used: Number(used), secondsToReset: secondsUntilReset(now) };
    } catch (err) {
      this.warn(`member request not counted (failing open): ${String(err)}`);
      return null;
    }
  }

  headers(state: MemberQuotaState): Record<string, string> {
    return {
      'ratelimit-policy': `"${POLICY}";q=${state.limit};w=${DAY_SECONDS}`,
      ratelimit: `"${POLICY}";r=${Math.max(0, state.limit - state.used)};t=${state.secondsToReset}`,
    };
  }

  enforce(state: MemberQuotaState): void {
    if (state.used <= state.limit) return;
    throw new ProblemException(
      problem(429, ProblemTypes.rateLimited, 'Too Many Requests', `A team member may make ${state.limit} requests per UTC day; this one resets in ${state.secondsToReset} s.`),
      { ...this.headers(state), 'retry-after': String(state.secondsToReset) },
    );
  }
}
