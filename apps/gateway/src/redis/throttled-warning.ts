import type { Logger } from '@nestjs/common';

/**
 * A warning logged at most once per interval (with how many were skipped): while Redis is down, every request fails
 * open, and one line per request would flood the log at thousands of requests per second.
 */
export function throttledWarning(logger: Logger, intervalMs = 10_000, now: () => number = Date.now): (message: string) => void {
  let last = -Infinity;
  let skipped = 0;
  return (message) => {
    if (now() - last < intervalMs) {
      skipped++;
      return;
    }
    logger.warn(skipped ? `${message} (and ${skipped} more like it)` : message);
    last = now();
    skipped = 0;
  };
}
