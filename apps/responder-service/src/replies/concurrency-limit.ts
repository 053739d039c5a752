/**
 * Runs at most `limit` tasks at once; the others wait their turn, first come first served, for as long as it takes (no
 * time-out: what waits here is a consumer's backlog, which is better kept waiting than failed and retried).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // the slot passes straight to the next in line, so a newcomer cannot take it first
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
