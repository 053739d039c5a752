import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ProblemTypes, problem, type Plan } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { throttledWarning } from '../redis/throttled-warning';
import { DAY_SECONDS, nextUtcMidnight, secondsUntilReset, utcDay } from './quota-window';

/** Where a tenant stands today, after counting the current request. */
export interface QuotaState {
  plan: Plan;
  /** Requests allowed per UTC day; null when the plan is unlimited. */
  limit: number | null;
  /** Requests counted today, this one included; NaN for an unlimited plan, whose requests are counted later. */
  used: number;
  resetsAt: Date;
  secondsToReset: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's daily quota after counting this request (absent when Redis could not be reached). */
    quota?: QuotaState;
  }
}

const POLICY = 'daily';

/**
 * `r` of an unlimited plan's `RateLimit` field: the largest Structured Fields integer (RFC 8941), so a client that
 * throttles on `r` never does, while every authenticated answer still carries the field (CONTRACT.md §8).
 */
export const UNLIMITED_REMAINING = 999_999_999_999_999;

/**
 * Adds ARGV[1] to a day's counter and, when that created it, expires it at the next UTC midnight (ARGV[2]) so a day's
 * counter cleans itself up: one atomic command (EVALSHA) instead of a MULTI/INCR/EXPIREAT/EXEC transaction.
 */
const COUNT_SCRIPT = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call('EXPIREAT', KEYS[1], ARGV[2]) end
return n`;

/** How long an unlimited plan's requests are summed in memory before they are added to its counter. */
const UNLIMITED_FLUSH_MS = 100;

/** Limited-plan requests of one counter waiting for the next batched count, in arrival order. */
interface PendingCount {
  expireAt: number;
  waiters: { resolve: (used: number | null) => void }[];
}

type CountingRedis = RedisService['client'] & { countQuota(key: string, by: number, expireAt: number): Promise<number> };

/**
 * The daily request quota (CONTRACT.md §8), counted in Redis so every gateway instance shares one counter per tenant
 * and day. Every plan is counted (so `/api/v1/usage` is true for all) and told where it stands; only a limited plan is
 * refused. A limited plan's request waits for its count, but the requests of one event-loop turn share it: one
 * INCRBY n per counter hands the waiters the consecutive counts n-k+1..n, exactly what k INCRs would have (a socket
 * write per request was the largest single cost of a send in the profile). An unlimited plan's requests cannot be
 * refused, so they are summed in memory and added every `UNLIMITED_FLUSH_MS` without anyone waiting.
 */
@Injectable()
export class QuotaService implements BeforeApplicationShutdown {
  private readonly warn = throttledWarning(new Logger(QuotaService.name));
  private readonly client: CountingRedis;
  /** Unlimited plans' requests not yet added to their counters, by counter key. */
  private readonly uncounted = new Map<string, { count: number; expireAt: number }>();
  private flushTimer?: NodeJS.Timeout;
  /** Limited plans' requests waiting for this turn's batched count, by counter key. */
  private pendingCounts = new Map<string, PendingCount>();

  constructor(
    private readonly redis: RedisService,
    private readonly config: GatewayConfig,
  ) {
    redis.client.defineCommand('countQuota', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    this.client = redis.client as CountingRedis;
  }

  limitOf(plan: Plan): number | null {
    switch (plan) {
      case 'free':
        return this.config.FREE_PLAN_DAILY_LIMIT;
      case 'pro':
        return this.config.PRO_PLAN_DAILY_LIMIT;
      case 'enterprise':
        return null;
    }
  }

  /**
   * Counts one request. Resolves with the state, or null when Redis cannot be reached: the quota then fails open (a
   * Redis outage must not take the API down with it; the counters are a business limit, not a safety one).
   */
  async consume(tenantId: string, plan: Plan, now = new Date()): Promise<QuotaState | null> {
    const key = this.key(tenantId, now);
    const expireAt = Math.floor(nextUtcMidnight(now).getTime() / 1000);
    if (this.limitOf(plan) === null) return this.countLater(key, expireAt, plan, now);
    const used = await this.countNow(key, expireAt);
    return used === null ? null : this.state(plan, used, now);
  }

  /**
   * Today's state without counting (for when the counter was not read on the way in), including this instance's
   * requests not yet added to the counter.
   */
  async peek(tenantId: string, plan: Plan, now = new Date()): Promise<QuotaState> {
    const key = this.key(tenantId, now);
    const used = Number((await this.redis.client.get(key)) ?? 0) + (this.uncounted.get(key)?.count ?? 0);
    return this.state(plan, used, now);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /**
   * The IETF RateLimit fields for an answer (draft-ietf-httpapi-ratelimit-headers). An unlimited plan has no quota
   * policy to describe, so it gets `RateLimit` alone, with `UNLIMITED_REMAINING`.
   */
  headers(state: QuotaState): Record<string, string> {
    if (state.limit === null) return { ratelimit: `"${POLICY}";r=${UNLIMITED_REMAINING};t=${state.secondsToReset}` };
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

  /** An unlimited plan's request: counted in the next flush; `used` is not known until then (see `peek`). */
  private countLater(key: string, expireAt: number, plan: Plan, now: Date): QuotaState {
    const pending = this.uncounted.get(key);
    if (pending) pending.count++;
    else this.uncounted.set(key, { count: 1, expireAt });
    this.flushTimer ??= setTimeout(() => void this.flush(), UNLIMITED_FLUSH_MS).unref();
    return this.state(plan, Number.NaN, now);
  }

  /** Joins this turn's batch for the counter; resolves with this request's count, or null when Redis failed. */
  private countNow(key: string, expireAt: number): Promise<number | null> {
    if (this.pendingCounts.size === 0) setImmediate(() => void this.countBatch());
    let pending = this.pendingCounts.get(key);
    if (!pending) this.pendingCounts.set(key, (pending = { expireAt, waiters: [] }));
    return new Promise((resolve) => pending.waiters.push({ resolve }));
  }

  private async countBatch(): Promise<void> {
    const batch = [...this.pendingCounts];
    this.pendingCounts = new Map();
    if (batch.length === 1) {
      const [key, { expireAt, waiters }] = batch[0];
      await this.client.countQuota(key, waiters.length, expireAt).then(
        (total) => hand(waiters, total),
        (err: unknown) => this.failOpen(waiters, err),
      );
      return;
    }
    const pipeline = this.client.pipeline() as ReturnType<CountingRedis['pipeline']> & { countQuota(key: string, by: number, expireAt: number): unknown };
    for (const [key, { expireAt, waiters }] of batch) pipeline.countQuota(key, waiters.length, expireAt);
    const results = await pipeline.exec().catch((err: unknown) => batch.map((): [unknown, unknown] => [err, null]));
    batch.forEach(([, { waiters }], i) => {
      const [err, total] = results?.[i] ?? [new Error('no reply'), null];
      if (err) this.failOpen(waiters, err);
      else hand(waiters, Number(total));
    });
  }

  private failOpen(waiters: PendingCount['waiters'], err: unknown): void {
    this.warn(`quota of ${waiters.length} requests not counted (failing open): ${String(err)}`);
    for (const waiter of waiters) waiter.resolve(null);
  }

  private async flush(): Promise<void> {
    this.flushTimer = undefined;
    if (this.uncounted.size === 0) return;
    const batch = [...this.uncounted];
    this.uncounted.clear();
    const pipeline = this.client.pipeline() as ReturnType<CountingRedis['pipeline']> & { countQuota(key: string, by: number, expireAt: number): unknown };
    for (const [key, { count, expireAt }] of batch) pipeline.countQuota(key, count, expireAt);
    try {
      for (const [err] of (await pipeline.exec()) ?? []) if (err) throw err;
    } catch (err) {
      this.warn(`${batch.length} unlimited plans' quota counts dropped (failing open): ${String(err)}`);
    }
  }

  private state(plan: Plan, used: number, now: Date): QuotaState {
    return { plan, limit: this.limitOf(plan), used, resetsAt: nextUtcMidnight(now), secondsToReset: secondsUntilReset(now) };
  }

  private key(tenantId: string, now: Date): string {
    return `${this.redis.prefix}quota:${tenantId}:${utcDay(now)}`;
  }
}

/** The counter reached `total` after adding one per waiter: the waiters, in arrival order, hold its last counts. */
function hand(waiters: PendingCount['waiters'], total: number): void {
  const first = total - waiters.length + 1;
  waiters.forEach((waiter, i) => waiter.resolve(first + i));
}
