import type { ParleyClient, paths } from '@parley/api-client';
import { unwrap } from './http';

// Campaigns (CONTRACT.md §15): one approved template to an audience of contacts, paced, exactly once each.

/** billing's cost estimate, recorded at start (CONTRACT.md §9; not yet in the generated client). */
export interface CampaignEstimate {
  amount: string;
  currency: string;
}
export type Campaign = paths['/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json'] & { estimate?: CampaignEstimate | null };
export type CampaignStatus = Campaign['status'];
export type CampaignCounts = Campaign['counts'];
export type CampaignRecipient = paths['/api/v1/campaigns/{id}/recipients']['get']['responses'][200]['content']['application/json']['data'][number];
export type CreateCampaignBody = Omit<paths['/api/v1/campaigns']['post']['requestBody']['content']['application/json'], 'tenant_id'>;
export type CampaignAction = 'start' | 'pause' | 'resume' | 'cancel';

export function createCampaignsApi(api: ParleyClient) {
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    listCampaigns: () => unwrap(api.GET('/api/v1/campaigns', { params: { query: { limit: 100 } } })),
    campaign: (id: string) => unwrap(api.GET('/api/v1/campaigns/{id}', path(id))) as Promise<Campaign>,
    createCampaign: (body: CreateCampaignBody) => unwrap(api.POST('/api/v1/campaigns', { body })) as Promise<Campaign>,
    campaignAction: (id: string, action: CampaignAction): Promise<Campaign> => {
      if (action === 'start') return unwrap(api.POST('/api/v1/campaigns/{id}/start', path(id)));
      if (action === 'pause') return unwrap(api.POST('/api/v1/campaigns/{id}/pause', path(id)));
      if (action === 'resume') return unwrap(api.POST('/api/v1/campaigns/{id}/resume', path(id)));
      return unwrap(api.POST('/api/v1/campaigns/{id}/cancel', path(id)));
    },
    campaignRecipients: (id: string) => unwrap(api.GET('/api/v1/campaigns/{id}/recipients', { params: { path: { id }, query: { limit: 100 } } })),
  };
}
