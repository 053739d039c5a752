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

/** `POST /api/v1/campaigns/audience-count` (CONTRACT.md §9; not yet in the generated client). */
export interface AudienceCount {
  count: number;
  opted_out: number;
}
export type CampaignAudience = CreateCampaignBody['audience'];
/** `GET /api/v1/campaigns/{id}/sends-per-minute` (CONTRACT.md §9; not yet in the generated client). */
export interface SendsInMinute {
  minute: string;
  count: number;
}
export type RecipientStatus = CampaignRecipient['status'];
/** Every recipient status, in the order a message goes through them (the filter's choices). */
export const RECIPIENT_STATUS_OPTIONS: readonly RecipientStatus[] = ['pending', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped_opted_out'];

interface UntypedClient {
  GET<T>(path: string): Promise<{ data?: T; error?: unknown; response: Response }>;
  POST<T>(path: string, init: { body: unknown }): Promise<{ data?: T; error?: unknown; response: Response }>;
}

export function createCampaignsApi(api: ParleyClient) {
  const raw = api as unknown as UntypedClient;
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
    /** A page of recipients (50 a page), only those with `status` when given. */
    campaignRecipients: (id: string, status: RecipientStatus | null, cursor: string | null) =>
      unwrap(api.GET('/api/v1/campaigns/{id}/recipients', { params: { path: { id }, query: { limit: 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } } })),
    campaignSendsPerMinute: (id: string) => unwrap(raw.GET<{ data: SendsInMinute[] }>(`/api/v1/campaigns/${encodeURIComponent(id)}/sends-per-minute`)),
    audienceCount: (audience: CampaignAudience) => unwrap(raw.POST<AudienceCount>('/api/v1/campaigns/audience-count', { body: { audience } })),
  };
}
