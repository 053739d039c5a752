interface Pending<TItem, TResult> {
  item: TItem;
  resolve: (result: TResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: items added while a write is under way go into the next write together, so a busy service pays one
 * database round trip per batch instead of one per item. Each caller hears back only once the
 * write holding its item has finished. A batch that fails is written again item by item, in order, so one bad item fails
 * only its own caller (a poison message must not take its neighbours to the dead-letter topic). One write at a time.
 *
 * `lingerMs`: how long the first item of a write waits for company (default: none, the rest of the event loop's turn).
 * Where items come one HTTP answer or one fetched batch at a time, a few milliseconds make a write of many out of
 * writes of one or two (issue 33: messaging-service's sends, 1.3 -> 0.7 status writes a message at 100/s).
 */
export class GroupCommit<TItem, TResult> {
  private queue: Pending<TItem, TResult>[] = [];
  private writing = false;

  private readonly maxBatch: number;
  private readonly lingerMs: number;

  /** `write` answers one result per item, in the items' order. */
  constructor(
    private readonly write: (items: TItem[]) => Promise<TResult[]>,
    { maxBatch = 500, lingerMs = 0 }: { maxBatch?: number; lingerMs?: number } = {},
  ) {
    this.maxBatch = maxBatch;
    this.lingerMs = lingerMs;
  }

  add(item: TItem): Promise<TResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // Items added in the same turn of the event loop (or while it lingers) share the first write.
        if (this.lingerMs > 0) setTimeout(() => void this.drain(), this.lingerMs);
        else setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.write(batch.map((p) => p.item));
          batch.forEach((p, i) => p.resolve(results[i]));
        } catch (err) {
          if (batch.length === 1) batch[0].reject(err);
          // One at a time, in the order added: writes that fold items in order (a ledger, a status machine) stay exact.
          else for (const p of batch) await this.write([p.item]).then(([result]) => p.resolve(result), p.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
