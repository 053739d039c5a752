export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** What is awaited, for the failure message. */
  description?: string;
}

/**
 * Calls `probe` until it returns a value other than undefined/false (or stops throwing), or the deadline passes.
 * The way to wait for an asynchronous effect in a test: never a fixed sleep.
 */
export async function pollUntil<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 50, description = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
