import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { notFoundProblem, type ApiKeyRecord, type CreatedApiKey, type Page } from '@parley/contracts';
import { ListCursors, ProblemException, redactSecretShapes } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/credentials';
import { RedisService } from '../../redis/redis.service';
import { TenantPlansService } from '../tenants/tenant-plans.service';
import { ApiKeyCache } from './api-key-cache';
import { toApiKeyRecord, toCreatedApiKey } from './api-keys.mapper';
import { ApiKeysStore } from './api-keys.store';

/**
 * A revoked key must be refused within 5 s (CONTRACT.md §2). A revocation is broadcast to every instance over Redis
 * at once; the TTL bounds the delay for an instance that missed the message (pub/sub is at-most-once).
 */
const CACHE_TTL_MS = 2000;
const REVOKED_CHANNEL = 'api-key-revoked';

/** Owns API keys: issue (secret shown once), list, revoke, and resolve a presented key to its tenant. */
@Injectable()
export class ApiKeysService implements OnModuleInit {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new ApiKeyCache(CACHE_TTL_MS);
  /** Database reads in flight, by key hash: a burst of misses for one key waits for one read. */
  private readonly lookups = new Map<string, Promise<string | null>>();

  constructor(
    private readonly keys: ApiKeysStore,
    private readonly redis: RedisService,
    private readonly plans: TenantPlansService,
    private readonly cursors: ListCursors,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.redis.subscribe(REVOKED_CHANNEL, (keyHash) => this.forget(keyHash));
  }

  create(tenantId: string, name: string | null): Promise<CreatedApiKey> {
    return this.issue(tenantId, name);
  }

  /** Issues a key inside the caller's transaction (account creation writes its first key with the tenant). */
  createIn(manager: EntityManager, tenantId: string, name: string | null): Promise<CreatedApiKey> {
    return this.issue(tenantId, name, manager);
  }

  private async issue(tenantId: string, name: string | null, tx?: EntityManager): Promise<CreatedApiKey> {
    const apiKey = generateApiKey();
    const entity = await this.keys.insert(tenantId, { name, keyHash: hashApiKey(apiKey), keyPrefix: apiKeyDisplayPrefix(apiKey) }, tx);
    return toCreatedApiKey(entity, apiKey);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<ApiKeyRecord>> {
    const cursors = this.cursors.of(tenantId, 'api-keys');
    const rows = await this.keys.list(tenantId, limit + 1, cursors.after(cursor));
    return { data: rows.slice(0, limit).map(toApiKeyRecord), next_cursor: cursors.next(rows, limit, (row) => row.id) };
  }

  /** Another tenant's key, or one already revoked, is not found. */
  async revoke(tenantId: string, id: string): Promise<void> {
    const keyHash = await this.keys.revoke(tenantId, id);
    // The id is echoed, but never an API key pasted in its place (issue 9: secrets never in answers).
    if (!keyHash) throw new ProblemException(notFoundProblem(`API key "${redactSecretShapes(id).slice(0, 100)}"`));
    this.forget(keyHash);
    await this.redis.publish(REVOKED_CHANNEL, keyHash).catch((err: unknown) => {
      this.logger.warn(`revocation of ${id} not broadcast (other instances refuse it within ${CACHE_TTL_MS / 1000} s): ${String(err)}`);
    });
  }

  /**
   * The tenant of a live key, or null. A database read also learns the tenant's plan, sparing the quota its own. When
   * the cached answer expires under a burst, the burst shares one read (single flight) instead of firing one each.
   */
  authenticate(apiKey: string): Promise<string | null> {
    const keyHash = hashApiKey(apiKey);
    const cached = this.cache.get(keyHash);
    if (cached !== undefined) return Promise.resolve(cached);
    return this.lookups.get(keyHash) ?? this.lookUp(keyHash);
  }

  /** Forgets a key's cached answer, and a read in flight for it, whose answer may predate the revocation. */
  private forget(keyHash: string): void {
    this.cache.delete(keyHash);
    this.lookups.delete(keyHash);
  }

  private lookUp(keyHash: string): Promise<string | null> {
    const lookup: Promise<string | null> = this.readKey(keyHash).then(
      (tenantId) => {
        // Cached only when no revocation came during the read (forget() removed the flight then).
        if (this.lookups.get(keyHash) === lookup) {
          this.lookups.delete(keyHash);
          this.cache.set(keyHash, tenantId);
        }
        return tenantId;
      },
      (err: unknown) => {
        if (this.lookups.get(keyHash) === lookup) this.lookups.delete(keyHash);
        throw err;
      },
    );
    this.lookups.set(keyHash, lookup);
    return lookup;
  }

  private async readKey(keyHash: string): Promise<string | null> {
    const key = await this.keys.live(keyHash);
    if (key) this.plans.remember(key.tenant_id, key.plan);
    return key?.tenant_id ?? null;
  }
}
