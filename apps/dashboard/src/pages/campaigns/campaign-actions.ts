import type { CampaignAction, CampaignStatus } from '../../api';

/** What a campaign in each status may do next (CONTRACT.md §15; anything else the API answers 409). */
export const ACTIONS_BY_STATUS: Record<CampaignStatus, readonly CampaignAction[]> = {
  draft: ['start', 'cancel'],
  scheduled: ['start', 'cancel'],
  running: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
  completed: [],
  cancelled: [],
};

export const ACTION_LABELS: Record<CampaignAction, string> = { start: 'Start now', pause: 'Pause', resume: 'Resume', cancel: 'Cancel campaign' };

/** Recipients handed over so far, of those who get a message (the opted out never do). */
export function progressOf(counts: { audience: number; skipped_opted_out: number; queued: number; sent: number; failed: number }): { done: number; of: number } {
  return { done: counts.queued + counts.sent + counts.failed, of: Math.max(0, counts.audience - counts.skipped_opted_out) };
}
