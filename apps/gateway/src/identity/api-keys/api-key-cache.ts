/**
 * In-process cache of API-key lookups (hash → tenant, or null for an unknown/revoked key), so a burst of requests
 * costs one database read per key per TTL. The TTL bounds how long a revoked key keeps working on another
 * instance (the contract allows 5 s); the size bound keeps random keys from growing it without limit.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { tenantId: string | null; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached tenant (null: known to be invalid), or undefined when there is no fresh entry. */
  get(keyHash: string): string | null | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.tenantId;
  }

  set(keyHash: string, tenantId: string | null): void {
    this.entries.delete(keyHash);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { tenantId, expiresAt: this.now() + this.ttlMs });
  }

  delete(keyHash: string): void {
    this.entries.delete(keyHash);
  }
}
