import type { CreateWebhookBody, ReplayWebhookBody, UpdateWebhookBody } from '../dto/webhooks.dto';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

export const WEBHOOK_EVENT_TYPES = [
  'message.received',
  'message.status',
  'lead.captured',
  'lead.updated',
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.cancelled',
  'conversation.handoff',
  'contact.opted_out',
  'contact.opted_in',
  'template.status',
  'wallet.low_balance',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'deal.created',
  'deal.stage_changed',
  'campaign.completed',
  'agent.gap_opened',
  'agent.tests_completed',
  'conversation.sla_breached',
  'conversation.rated',
  'webhook.endpoint_disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A tenant's webhook endpoint (CONTRACT.md §5), without its signing secret. */
export interface WebhookEndpointRecord {
  /** @idPrefix whk */
  id: string;
  /** @apiFormat uri */
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  ordered: boolean;
  created_at: string;
}

/** An endpoint as created: with its signing secret, which otherwise only `GET /api/v1/webhooks/{id}/secret` shows. */
export interface CreatedWebhookRecord extends WebhookEndpointRecord {
  /** @apiSchema {pattern: '^whsec_'} */
  secret: string;
}

/** An endpoint's signing secret (`GET /api/v1/webhooks/{id}/secret`, and a rotation's new one). */
export interface WebhookSecretRecord {
  /** @apiSchema {pattern: '^whsec_'} */
  secret: string;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'dead'] as const;
export type WebhookDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One attempt of a delivery, for the tenant's delivery log. */
export interface WebhookAttemptRecord {
  /** @apiType integer */
  attempt: number;
  attempted_at: string;
  /**
   * null when no response came (refused, reset, timed out).
   * @apiType integer
   */
  status_code: number | null;
  /** @apiType integer */
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/** One event on its way to one endpoint (`GET /api/v1/webhooks/{id}/deliveries`). `event_id` is the `webhook-id`. */
export interface WebhookDeliveryRecord {
  /** @idPrefix dlv */
  id: string;
  /** @idPrefix whk */
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  /** @apiType integer */
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  attempts: WebhookAttemptRecord[];
}

/**
 * One delivery with what is sent (`GET /api/v1/webhooks/{id}/deliveries/{delivery_id}`). `payload` is the exact JSON body
 * every attempt signs and sends; `request_headers` are the headers every attempt carries (each attempt adds its own
 * `webhook-timestamp`, its attempt time in seconds, and the `webhook-signature` over it). The record and its body are
 * kept as long as the event (7 days for replay); after that the delivery is gone (404).
 */
export interface WebhookDeliveryDetail extends WebhookDeliveryRecord {
  /** The exact JSON body every attempt signs and sends. */
  payload: Record<string, unknown>;
  /** Headers every attempt carries; each attempt adds its own `webhook-timestamp` (its time in seconds) and `webhook-signature`. */
  request_headers: Record<string, string>;
}

/** Answer of the `202` routes: the work is queued, not done. */
export interface WebhookAccepted {
  accepted: true;
}

/** `POST /api/v1/webhooks/{id}/test`: a `webhook.test` event is queued to the endpoint. */
export interface WebhookTestAccepted extends WebhookAccepted {
  /** Its `webhook-id`. */
  event_id: string;
}

/** `POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry`: the delivery is queued again. */
export interface DeliveryRetryAccepted extends WebhookAccepted {
  /** @idPrefix dlv */
  delivery_id: string;
}

/** `POST /api/v1/webhooks/{id}/replay`: the kept events since `since` are queued again. */
export interface WebhookReplayAccepted extends WebhookAccepted {
  /**
   * How many deliveries were queued again.
   * @apiType integer
   */
  deliveries: number;
}

/** webhook-service's request-reply patterns. */
export interface WebhooksRpc {
  'webhooks.create': { service: 'webhooks'; request: TenantScoped & { body: CreateWebhookBody }; response: CreatedWebhookRecord };
  'webhooks.list': { service: 'webhooks'; request: TenantScoped & ListQuery; response: Page<WebhookEndpointRecord> };
  'webhooks.get': { service: 'webhooks'; request: TenantScoped & { id: string }; response: WebhookEndpointRecord };
  'webhooks.update': { service: 'webhooks'; request: TenantScoped & { id: string; body: UpdateWebhookBody }; response: WebhookEndpointRecord };
  'webhooks.delete': { service: 'webhooks'; request: TenantScoped & { id: string }; response: { deleted: true } };
  'webhooks.get-secret': { service: 'webhooks'; request: TenantScoped & { id: string }; response: WebhookSecretRecord };
  /** New secret; the previous one keeps signing (and verifying) for 24 h. */
  'webhooks.rotate-secret': { service: 'webhooks'; request: TenantScoped & { id: string }; response: WebhookSecretRecord };
  /** Queues a `webhook.test` event to this endpoint only; `event_id` is its webhook-id. */
  'webhooks.test': { service: 'webhooks'; request: TenantScoped & { id: string }; response: WebhookTestAccepted };
  /** Sends again every kept event since `since` that the endpoint subscribes to (same webhook-ids). */
  'webhooks.replay': { service: 'webhooks'; request: TenantScoped & { id: string; body: ReplayWebhookBody }; response: WebhookReplayAccepted };
  'deliveries.list': {
    service: 'webhooks';
    request: TenantScoped & ListQuery & { endpoint_id: string; status: WebhookDeliveryStatus | null };
    response: Page<WebhookDeliveryRecord>;
  };
  'deliveries.get': { service: 'webhooks'; request: TenantScoped & { endpoint_id: string; delivery_id: string }; response: WebhookDeliveryDetail };
  /** Sends one delivery again now, with a fresh retry schedule and the same webhook-id. */
  'deliveries.retry': { service: 'webhooks'; request: TenantScoped & { endpoint_id: string; delivery_id: string }; response: DeliveryRetryAccepted };
}
