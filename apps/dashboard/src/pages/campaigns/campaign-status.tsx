import type { CampaignStatus } from '../../api';

const TONES: Record<CampaignStatus, string> = { draft: ' badge-warning', scheduled: ' badge-warning', running: '', paused: ' badge-warning', completed: '', cancelled: ' badge-error' };

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <span className={`badge${TONES[status]}`} data-testid="campaign-status" data-status={status}>
      {status}
    </span>
  );
}
