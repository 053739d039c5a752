import type { CreateCampaignBody } from '../dto/campaigns.dto';
import type { CampaignRecipientRecord, CampaignRecord, RecipientStatus } from '../events/campaigns';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

export type CampaignAction = 'start' | 'pause' | 'resume' | 'cancel';

/** campaign-service's patterns (CONTRACT.md §15). Bodies are checked again by campaign-service. */
export interface CampaignsRpc {
  'campaigns.create': { service: 'campaigns'; request: TenantScoped & { body: CreateCampaignBody }; response: CampaignRecord };
  'campaigns.list': { service: 'campaigns'; request: TenantScoped & ListQuery; response: Page<CampaignRecord> };
  'campaigns.get': { service: 'campaigns'; request: TenantScoped & { id: string }; response: CampaignRecord };
  /** A lifecycle move; an illegal one answers 409, a start whose recipients would get an empty parameter 409 listing them. */
  'campaigns.transition': { service: 'campaigns'; request: TenantScoped & { id: string; action: CampaignAction }; response: CampaignRecord };
  'campaigns.recipients': { service: 'campaigns'; request: TenantScoped & ListQuery & { id: string; status?: RecipientStatus }; response: Page<CampaignRecipientRecord> };
  /** Messages handed over per minute (`queued_at` truncated to the minute), oldest first: the progress page's chart. */
  'campaigns.sends-per-minute': { service: 'campaigns'; request: TenantScoped & { id: string }; response: { data: SendsInMinute[] } };
}

export interface SendsInMinute {
  /** The minute's start, ISO 8601. */
  minute: string;
  count: number;
}
