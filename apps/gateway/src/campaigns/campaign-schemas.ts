import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CAMPAIGN_STATUSES, RECIPIENT_STATUSES } from '@parley/contracts';

/* The answers of the campaign routes (CONTRACT.md §15), from the same constants campaign-service uses. */

const string: SchemaObject = { type: 'string' };
const integer: SchemaObject = { type: 'integer', minimum: 0 };
const timestamp: SchemaObject = { type: 'string', format: 'date-time' };
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const record = (properties: Record<string, SchemaObject>): SchemaObject => ({ type: 'object', properties, required: Object.keys(properties) });
const page = (item: SchemaObject): SchemaObject => record({ data: { type: 'array', items: item }, next_cursor: nullable(string) });

const counts = record(Object.fromEntries(['audience', 'queued', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped_opted_out'].map((k) => [k, integer])));

export const CampaignSchema: SchemaObject = record({
  id: { type: 'string', pattern: '^cpg_', example: 'cpg_01JD3S4ZC5Q2X8V6N7M9P0R1T2' },
  name: string,
  channel_id: nullable(string),
  template: { type: 'object', properties: { name: string, language: string, components: { type: 'array', items: { type: 'object' } } }, required: ['name', 'language'] },
  audience: { type: 'object', properties: { tags: { type: 'array', items: string }, contact_ids: { type: 'array', items: string }, attributes: { type: 'object' } } },
  status: { type: 'string', enum: [...CAMPAIGN_STATUSES] },
  schedule_at: nullable(timestamp),
  rate_per_second: { type: 'integer', minimum: 1 },
  status_reason: nullable(string),
  counts,
  // billing's estimate, recorded at start (or when a start was refused for it)
  estimate: nullable(record({ amount: { type: 'string', example: '79.960000' }, currency: { type: 'string', example: 'USD' } })),
  created_at: timestamp,
  started_at: nullable(timestamp),
  completed_at: nullable(timestamp),
});

export const CampaignPageSchema = page(CampaignSchema);

export const CampaignRecipientPageSchema = page(
  record({
    contact_id: string,
    phone: string,
    message_id: nullable(string),
    status: { type: 'string', enum: [...RECIPIENT_STATUSES] },
    error: nullable(record({ code: string, title: string })),
    replied_at: nullable(timestamp),
    updated_at: timestamp,
  }),
);

export const AudienceCountSchema = record({ count: integer, opted_out: integer });

export const SendsPerMinuteSchema = record({ data: { type: 'array', items: record({ minute: timestamp, count: integer }) } });
