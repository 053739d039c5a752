import type { EventEnvelope } from './envelope';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * A recipient's progress: `pending` (frozen, not yet handed over), `queued` (on `message.outbound`), then the
 * provider's statuses; `skipped_opted_out` never gets a message.
 */
export const RECIPIENT_STATUSES = ['pending', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped_opted_out'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/**
 * Live counts (CONTRACT.md §15). `sent`, `delivered` and `read` count recipients that reached at least that status
 * (a read message was delivered and sent too); `queued` those handed over with no provider status yet.
 */
export interface CampaignCounts {
  audience: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  skipped_opted_out: number;
}

export interface CampaignTemplate {
  name: string;
  language: string;
  components?: unknown[];
}

export interface CampaignAudience {
  tags?: string[];
  contact_ids?: string[];
  attributes?: Record<string, string | number | boolean>;
}

/** What sending a campaign costs (billing-service's price book, asked at start): a decimal string in `currency`. */
export interface CampaignEstimate {
  amount: string;
  currency: string;
}

/** A campaign (`GET /api/v1/campaigns/{id}`, CONTRACT.md §15). */
export interface CampaignRecord {
  id: string;
  name: string;
  channel_id: string | null;
  template: CampaignTemplate;
  audience: CampaignAudience;
  status: CampaignStatus;
  schedule_at: string | null;
  /** Messages per second this campaign hands to its channel (kept below the number's limit: replies go first). */
  rate_per_second: number;
  /** Why it is paused (by the service: a provider quality or spam block) or why a scheduled start was refused. */
  status_reason: string | null;
  counts: CampaignCounts;
  /** Its cost as billing estimated it when it was started (or refused for it); null before, or when billing did not answer (absent from events older than the field). */
  estimate?: CampaignEstimate | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** One audience contact of a campaign and its message (`GET …/{id}/recipients`). */
export interface CampaignRecipientRecord {
  contact_id: string;
  phone: string;
  message_id: string | null;
  status: RecipientStatus;
  error: { code: string; title: string } | null;
  replied_at: string | null;
  updated_at: string;
}

/** `campaign.completed` (public webhook body): every recipient's message was handed over (or skipped). */
export interface CampaignCompletedData {
  event: 'campaign.completed';
  tenant_id: string;
  campaign: CampaignRecord;
  at: string;
}

export type CampaignCompletedEvent = EventEnvelope<'campaign.completed', CampaignCompletedData>;
