/** The pause after the `attempts`-th failed attempt (1-based): the schedule's entry, its last one repeating. */
export function retryDelayMs(scheduleMs: readonly number[], attempts: number): number {
  return scheduleMs[Math.min(Math.max(attempts, 1), scheduleMs.length) - 1];
}

/** Whether a notification has been owed too long to try again: its horizon (`giveUpAt`, set when recorded) has come. */
export function pastGiveUp(giveUpAt: Date, now = Date.now()): boolean {
  return now >= giveUpAt.getTime();
}
