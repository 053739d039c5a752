import type { CreateWebhookBody, UpdateWebhookBody } from '../dto/webhooks.dto';
import type { ListQuery, Page, TenantScoped } from './rpc';

export const WEBHOOK_EVENT_TYPES = [
  'message.received',
  'message.status',
  'lead.captured',
  'appointment.booked',
  'conversation.handoff',
  'webhook.endpoint_disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A tenant's webhook endpoint (CONTRACT.md §5). `secret` only where the contract shows it. */
export interface WebhookEndpointRecord {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  ordered: boolean;
  created_at: string;
  secret?: string;
}

/** webhook-service's request-reply patterns. */
export interface WebhooksRpc {
  'webhooks.create': { service: 'webhooks'; request: TenantScoped & { body: CreateWebhookBody }; response: WebhookEndpointRecord & { secret: string } };
  'webhooks.list': { service: 'webhooks'; request: TenantScoped & ListQuery; response: Page<WebhookEndpointRecord> };
  'webhooks.get': { service: 'webhooks'; request: TenantScoped & { id: string }; response: WebhookEndpointRecord };
  'webhooks.update': { service: 'webhooks'; request: TenantScoped & { id: string; body: UpdateWebhookBody }; response: WebhookEndpointRecord };
  'webhooks.delete': { service: 'webhooks'; request: TenantScoped & { id: string }; response: { deleted: true } };
  'webhooks.get-secret': { service: 'webhooks'; request: TenantScoped & { id: string }; response: { secret: string } };
}
