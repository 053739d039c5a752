import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type Plan } from '@parley/contracts';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { TenantEntity } from '../accounts/tenant.entity';
import { ApiKeyEntity } from './api-key.entity';

/** API keys as stored: only a key's hash and its display prefix, never the key. The tenant id first where a tenant's keys are read. */
@Injectable()
export class ApiKeysStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores a new live key (inside `tx` when given: account creation writes its first key with the tenant). */
  insert(tenantId: string, key: { name: string | null; keyHash: string; keyPrefix: string }, tx: EntityManager = this.db.manager): Promise<ApiKeyEntity> {
    return tx.save(tx.getRepository(ApiKeyEntity).create({ id: newId('key'), tenantId, ...key, revokedAt: null }));
  }

  /** Live keys newest first: up to `limit` with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<ApiKeyEntity[]> {
    const query = this.db
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .where('k.tenant_id = :tenantId AND k.revoked_at IS NULL', { tenantId })
      .orderBy('k.id', 'DESC')
      .take(limit);
    if (beforeId !== null) query.andWhere('k.id < :beforeId', { beforeId });
    return query.getMany();
  }

  /** Revokes a live key of the tenant; its hash, or null when the tenant has no such live key. */
  async revoke(tenantId: string, id: string): Promise<string | null> {
    const revoked = await this.db
      .getRepository(ApiKeyEntity)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where({ id, tenantId, revokedAt: IsNull() })
      .returning('key_hash')
      .execute();
    return (revoked.raw as { key_hash: string }[])[0]?.key_hash ?? null;
  }

  /** The tenant (and its plan) of a live key by its hash, or null: the one read behind every API request's key. */
  live(keyHash: string): Promise<{ tenant_id: string; plan: Plan } | undefined> {
    return this.db
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .innerJoin(TenantEntity, 't', 't.id = k.tenant_id')
      .select(['k.tenant_id AS tenant_id', 't.plan AS plan'])
      .where('k.key_hash = :keyHash AND k.revoked_at IS NULL', { keyHash })
      .getRawOne<{ tenant_id: string; plan: Plan }>();
  }
}
