/** The pause after the `attempts`-th failed attempt (1-based): the schedule's entry, its last one repeating. */
export function retryDelayMs(scheduleMs: readonly number[], attempts: number): number {
  return scheduleMs[Math.min(Math.max(attempts, 1), scheduleMs.length) - 1];
}

/** Whether a notification recorded at `createdAt` has been owed too long to try again. */
export function pastGiveUp(createdAt: Date, giveUpMs: number, now = Date.now()): boolean {
  return now - createdAt.getTime() >= giveUpMs;
}
