/**
 * "Work was queued" from the module that writes it to the worker another module holds, in this process (other
 * instances find it at their sweep). A class of its own per queue, so Nest injects each by its type.
 */
export abstract class QueueSignal {
  private readonly listeners: (() => void)[] = [];

  onQueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called after the transaction that queued the work committed. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
