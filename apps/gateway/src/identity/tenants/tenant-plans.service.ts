import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Plan } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { TenantEntity } from '../accounts/tenant.entity';
import { RedisService } from '../../redis/redis.service';

/**
 * A backstop only: a plan change is pushed to every instance over Redis at once; this bounds how long an instance
 * that missed the message (pub/sub is at-most-once, e.g. across a reconnect) keeps the old plan.
 */
const PLAN_TTL_MS = 30_000;
const MAX_ENTRIES = 100_000;
const CHANNEL = 'tenant-plan-changed';

/**
 * Each tenant's plan, known without a database round trip per request: cached in-process (primed by the API-key
 * lookup, which reads it in the same query), invalidated on every instance when an operator changes it.
 */
@Injectable()
export class TenantPlansService implements OnModuleInit {
  private readonly logger = new Logger(TenantPlansService.name);
  private readonly cache = new Map<string, { plan: Plan; expiresAt: number }>();
  /** Database reads in flight, by tenant: a burst of misses for one tenant waits for one read. */
  private readonly reads = new Map<string, Promise<Plan | null>>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.redis.subscribe(CHANNEL, (tenantId) => this.forget(tenantId));
  }

  /** The tenant's plan; null when the tenant does not exist (any more). A burst of misses shares one read. */
  planOf(tenantId: string): Promise<Plan | null> {
    const entry = this.cache.get(tenantId);
    if (entry && entry.expiresAt > Date.now()) return Promise.resolve(entry.plan);
    return this.reads.get(tenantId) ?? this.readPlan(tenantId);
  }

  private readPlan(tenantId: string): Promise<Plan | null> {
    const read: Promise<Plan | null> = this.db
      .getRepository(TenantEntity)
      .findOne({ where: { id: tenantId }, select: { plan: true } })
      .then(
        (tenant) => {
          // Cached only when no plan change came during the read (forget() removed the flight then).
          if (this.reads.get(tenantId) === read) {
            this.reads.delete(tenantId);
            if (tenant) this.remember(tenantId, tenant.plan);
          }
          return tenant?.plan ?? null;
        },
        (err: unknown) => {
          if (this.reads.get(tenantId) === read) this.reads.delete(tenantId);
          throw err;
        },
      );
    this.reads.set(tenantId, read);
    return read;
  }

  /** Forgets a tenant's cached plan, and a read in flight for it, whose answer may predate the change. */
  private forget(tenantId: string): void {
    this.cache.delete(tenantId);
    this.reads.delete(tenantId);
  }

  /** Records a plan read along with a credential. */
  remember(tenantId: string, plan: Plan): void {
    this.cache.delete(tenantId);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(tenantId, { plan, expiresAt: Date.now() + PLAN_TTL_MS });
  }

  /** Changes a tenant's plan; false when there is no such tenant. Every instance forgets its cached plan at once. */
  async setPlan(tenantId: string, plan: Plan): Promise<boolean> {
    const result = await this.db.getRepository(TenantEntity).update({ id: tenantId }, { plan });
    if (!result.affected) return false;
    this.forget(tenantId);
    await this.redis.publish(CHANNEL, tenantId).catch((err: unknown) => {
      this.logger.warn(`plan change of ${tenantId} not broadcast (other instances learn it within ${PLAN_TTL_MS / 1000} s): ${String(err)}`);
    });
    return true;
  }
}
