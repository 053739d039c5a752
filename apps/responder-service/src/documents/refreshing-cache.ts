export interface RefreshingCacheOptions {
  /** An entry younger than this answers at once. */
  freshMs: number;
  /** An entry older than `freshMs` but younger than this answers at once too, while one load refreshes it. */
  usableMs: number;
  /** Past this many entries the cache starts again (a bound, not an eviction policy). */
  maxEntries: number;
  /** A background load failed: the stale entry goes on answering until it is too old, then a caller loads. */
  onRefreshError: (key: string, err: unknown) => void;
  now?: () => number;
}

/**
 * A read model kept in memory, refreshed before it goes stale: a fresh entry answers at once; a stale one still within
 * `usableMs` answers at once while a single load refreshes it in the background; an older one, or none, waits for a
 * load. A load that an invalidation overtook does not fill the cache (it may have read the state before the change).
 * Hand-written rather than lru-cache: its stale-while-revalidate has no bound on how stale an answer may be, and the
 * callers promise one (CONTRACT.md §11: a document change reaches the answers within 5 s).
 */
export class RefreshingCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly refreshing = new Set<string>();
  /** Bumped by every invalidation: a load that began before it does not fill the cache. */
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: RefreshingCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The entry of `key`: `load` when the caller must wait for it, `loadInBackground` for a refresh nobody waits on. */
  get(key: string, load: () => Promise<V>, loadInBackground: () => Promise<V> = load): Promise<V> {
    const entry = this.entries.get(key);
    const age = entry ? this.now() - entry.at : Infinity;
    if (entry && age < this.options.freshMs) return Promise.resolve(entry.value);
    if (entry && age < this.options.usableMs) {
      this.refresh(key, loadInBackground);
      return Promise.resolve(entry.value);
    }
    return this.fill(key, load);
  }

  /** Forgets `key`: the next caller loads it (and a load under way does not put back what it read). */
  invalidate(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  private refresh(key: string, load: () => Promise<V>): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    this.fill(key, load)
      .catch((err: unknown) => this.options.onRefreshError(key, err))
      .finally(() => this.refreshing.delete(key));
  }

  private async fill(key: string, load: () => Promise<V>): Promise<V> {
    const generation = this.generation;
    // Aged from when the read began: what it read is at least that old.
    const startedAt = this.now();
    const value = await load();
    if (generation === this.generation) {
      if (this.entries.size >= this.options.maxEntries && !this.entries.has(key)) this.entries.clear();
      this.entries.set(key, { value, at: startedAt });
    }
    return value;
  }
}
