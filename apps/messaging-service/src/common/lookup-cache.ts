/**
 * Memoises lookups for `ttlMs` (found values only: a miss is asked again). Concurrent lookups of one key share one
 * load (a burst of sends from one number asks once). `clear()` drops everything, and a lookup that was under way
 * when it ran is not stored, so a change is never shadowed by a read that began before it.
 */
export class LookupCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<V | null>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loaded = load()
      .then((value) => {
        if (value !== null && generation === this.generation) {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.generation++;
  }
}
