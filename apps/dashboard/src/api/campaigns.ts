import type { ParleyClient, paths } from '@parley/api-client';
import { unwrap } from './http';

// Campaigns (CONTRACT.md §15): one approved template to an audience of contacts, paced, exactly once each.

export type Campaign = paths['/api/v1/campaigns/{id}']['get']['responses'][200]['content']['application/json'];
/** billing's cost estimate, recorded at start (CONTRACT.md §9). */
export type CampaignEstimate = NonNullable<Campaign['estimate']>;
export type CampaignStatus = Campaign['status'];
export type CampaignCounts = Campaign['counts'];
export type CampaignRecipient = paths['/api/v1/campaigns/{id}/recipients']['get']['responses'][200]['content']['application/json']['data'][number];
export type CreateCampaignBody = Omit<paths['/api/v1/campaigns']['post']['requestBody']['content']['application/json'], 'tenant_id'>;
export type CampaignAction = 'start' | 'pause' | 'resume' | 'cancel';

/** `POST /api/v1/campaigns/audience-count` (CONTRACT.md §9). */
export type AudienceCount = paths['/api/v1/campaigns/audience-count']['post']['responses'][200]['content']['application/json'];
export type CampaignAudience = CreateCampaignBody['audience'];
/** `GET /api/v1/campaigns/{id}/sends-per-minute` (CONTRACT.md §9). */
export type SendsInMinute = paths['/api/v1/campaigns/{id}/sends-per-minute']['get']['responses'][200]['content']['application/json']['data'][number];
export type RecipientStatus = CampaignRecipient['status'];
/** Every recipient status, in the order a message goes through them (the filter's choices). */
export const RECIPIENT_STATUS_OPTIONS: readonly RecipientStatus[] = ['pending', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped_opted_out'];

export function createCampaignsApi(api: ParleyClient) {
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    listCampaigns: () => unwrap(api.GET('/api/v1/campaigns', { params: { query: { limit: 100 } } })),
    campaign: (id: string) => unwrap(api.GET('/api/v1/campaigns/{id}', path(id))),
    createCampaign: (body: CreateCampaignBody) => unwrap(api.POST('/api/v1/campaigns', { body })),
    campaignAction: (id: string, action: CampaignAction): Promise<Campaign> => {
      if (action === 'start') return unwrap(api.POST('/api/v1/campaigns/{id}/start', path(id)));
      if (action === 'pause') return unwrap(api.POST('/api/v1/campaigns/{id}/pause', path(id)));
      if (action === 'resume') return unwrap(api.POST('/api/v1/campaigns/{id}/resume', path(id)));
      return unwrap(api.POST('/api/v1/campaigns/{id}/cancel', path(id)));
    },
    /** A page of recipients (50 a page), only those with `status` when given. */
    campaignRecipients: (id: string, status: RecipientStatus | null, cursor: string | null) =>
      unwrap(api.GET('/api/v1/campaigns/{id}/recipients', { params: { path: { id }, query: { limit: 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } } })),
    campaignSendsPerMinute: (id: string) => unwrap(api.GET('/api/v1/campaigns/{id}/sends-per-minute', path(id))),
    audienceCount: (audience: CampaignAudience) => unwrap(api.POST('/api/v1/campaigns/audience-count', { body: { audience } })),
  };
}
