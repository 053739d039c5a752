/** A partition's committable position: the offset of the next message to read (the last handled one + 1). */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Commits one consumer's handled offsets at most once per interval instead of after every fetched batch. Under a
 * steady trickle each batch holds a message or two, and a commit per batch was an OffsetCommit round trip (and a
 * write to `__consumer_offsets`) per message.
 *
 * At-least-once holds: only offsets whose messages (and every one before them) were handled are ever recorded, so a
 * crash replays at most an interval's worth of handled messages and skips none; handlers are idempotent. A timer is
 * armed only while something waits to be committed, so an idle consumer commits nothing and wakes for nothing.
 */
export class OffsetCommitter {
  /** topic → partition → next offset to read, not yet committed. */
  private pending = new Map<string, Map<number, string>>();
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly commit: (offsets: PartitionOffset[]) => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Records that the partition's messages up to and including `offset` are handled. */
  handled(topic: string, partition: number, offset: string): void {
    let partitions = this.pending.get(topic);
    if (!partitions) this.pending.set(topic, (partitions = new Map()));
    partitions.set(partition, (BigInt(offset) + 1n).toString());
    this.schedule();
  }

  /** Whether anything handled is not committed yet. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Commits what is pending now (before a rebalance or shutdown hands the partitions on). Never rejects. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // One commit at a time: a later one always carries offsets at least as far as an earlier one.
    this.chain = this.chain.then(() => this.commitPending());
    return this.chain;
  }

  /** Forgets partitions this consumer no longer owns (after a rebalance): committing them could only rewind them. */
  retain(assignment: Record<string, number[]>): void {
    for (const [topic, partitions] of this.pending) {
      const owned = new Set(assignment[topic] ?? []);
      for (const partition of partitions.keys()) if (!owned.has(partition)) partitions.delete(partition);
      if (partitions.size === 0) this.pending.delete(topic);
    }
  }

  /** Stops the timer; what is pending stays uncommitted (and is replayed to whoever reads the partition next). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  private async commitPending(): Promise<void> {
    const taken = this.pending;
    if (taken.size === 0) return;
    this.pending = new Map();
    const offsets: PartitionOffset[] = [];
    for (const [topic, partitions] of taken) for (const [partition, offset] of partitions) offsets.push({ topic, partition, offset });
    try {
      await this.commit(offsets);
    } catch (err) {
      // Put back what no newer handled offset has replaced meanwhile, and try again on the next interval.
      for (const { topic, partition, offset } of offsets) {
        let partitions = this.pending.get(topic);
        if (!partitions) this.pending.set(topic, (partitions = new Map()));
        if (!partitions.has(partition)) partitions.set(partition, offset);
      }
      this.schedule();
      this.onError(err);
    }
  }
}
