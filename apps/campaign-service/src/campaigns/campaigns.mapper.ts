import type { CampaignEstimate, CampaignRecipientRecord, CampaignRecord, CampaignStatus, RecipientStatus } from '@parley/contracts';

export const CAMPAIGN_COLUMNS = `id, tenant_id, name, channel_id, template, audience, status, schedule_at, rate_per_second, status_reason, audience_count,
  queued, sent, delivered, read, replied, failed, skipped_opted_out, estimate, created_at, started_at, completed_at`;

export interface CampaignRow {
  id: string;
  tenant_id: string;
  name: string;
  channel_id: string | null;
  template: CampaignRecord['template'];
  audience: CampaignRecord['audience'];
  status: CampaignStatus;
  schedule_at: Date | null;
  rate_per_second: number;
  status_reason: string | null;
  audience_count: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  skipped_opted_out: number;
  estimate: CampaignEstimate | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toCampaignRecord(row: CampaignRow): CampaignRecord {
  return {
    id: row.id,
    name: row.name,
    channel_id: row.channel_id,
    template: row.template,
    audience: row.audience,
    status: row.status,
    schedule_at: iso(row.schedule_at),
    rate_per_second: row.rate_per_second,
    status_reason: row.status_reason,
    counts: {
      audience: row.audience_count,
      queued: row.queued,
      sent: row.sent,
      delivered: row.delivered,
      read: row.read,
      replied: row.replied,
      failed: row.failed,
      skipped_opted_out: row.skipped_opted_out,
    },
    estimate: row.estimate,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
  };
}

export interface RecipientRow {
  contact_id: string;
  phone: string;
  message_id: string;
  status: RecipientStatus;
  error: CampaignRecipientRecord['error'];
  replied_at: Date | null;
  updated_at: Date;
}

export function toRecipientRecord(row: RecipientRow): CampaignRecipientRecord {
  return {
    contact_id: row.contact_id,
    phone: row.phone,
    message_id: row.status === 'skipped_opted_out' ? null : row.message_id,
    status: row.status,
    error: row.error,
    replied_at: iso(row.replied_at),
    updated_at: iso(row.updated_at)!,
  };
}
