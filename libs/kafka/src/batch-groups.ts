/** The messages of a fetched batch grouped by key, keys in order of first appearance, each group in partition order. */
export function groupByKey<M extends { key: Buffer | string | null; offset: string }>(messages: readonly M[]): Map<string, M[]> {
  const groups = new Map<string, M[]>();
  for (const message of messages) {
    const key = message.key?.toString() ?? '';
    const group = groups.get(key);
    if (group) group.push(message);
    else groups.set(key, [message]);
  }
  return groups;
}

/**
 * Which offset of a batch may be committed when its groups finish out of partition order: the last of the leading run
 * of handled messages. A crash then replays whatever follows the first unhandled message, and skips nothing.
 */
export class OffsetWatermark {
  private readonly pending: string[];
  private readonly handled = new Set<string>();

  constructor(offsets: readonly string[]) {
    this.pending = [...offsets];
  }

  /** Marks offsets handled; returns the offset to resolve now, or null when the leading message is still unhandled. */
  settle(offsets: readonly string[]): string | null {
    for (const offset of offsets) this.handled.add(offset);
    let last: string | null = null;
    while (this.pending.length > 0 && this.handled.has(this.pending[0])) last = this.pending.shift()!;
    return last;
  }
}

/**
 * Runs `work` for each item in order, at most `limit` at once. Starts no more once `mayStart` says no or one has
 * failed; always waits for every started one before returning, then throws the first failure.
 */
export async function runBounded<T>(items: Iterable<T>, limit: number, mayStart: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for (const item of items) {
    while (inFlight.size >= limit) await Promise.race(inFlight);
    if (failure || !mayStart()) break;
    const run: Promise<void> = (async () => work(item))()
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;
}
