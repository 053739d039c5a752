import type { CampaignAction, CampaignStatus } from '@parley/contracts';

/**
 * The statuses each action may leave (CONTRACT.md §15): draft → scheduled → running → completed, with paused and
 * cancelled. `start` also starts a scheduled campaign early. Anything else is a 409.
 */
const FROM: Record<CampaignAction, readonly CampaignStatus[]> = {
  start: ['draft', 'scheduled'],
  pause: ['running'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
};

export function canApply(action: CampaignAction, status: CampaignStatus): boolean {
  return FROM[action].includes(status);
}
