import { Injectable } from '@nestjs/common';
import {
  DELIVERY_STATUSES,
  ProblemTypes,
  hasPrefix,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  ReplayWebhookBody,
  type EventEnvelope,
  type Page,
  type WebhookDeliveryDetail,
  type WebhookDeliveryRecord,
  type WebhookDeliveryStatus,
  type WebhookEndpointRecord,
} from '@parley/contracts';
import { GroupCommit, ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { EndpointsService } from '../endpoints/endpoints.service';
import { DeliveriesStore, type IncomingEvent } from './deliveries.store';
import { toDeliveryRecord } from './deliveries.mapper';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EVENT_RETENTION_DAYS } from './event-retention';
import { orderingKeyOf } from './ordering-key';
import { deliveryHeaders } from './signing';

/** webhook-id goes into the signed content `id.timestamp.body`, so it may not contain a full stop. */
const EVENT_ID = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_PAGE = 100;
/** Events stored in one transaction at most. */
const MAX_INGEST_BATCH = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A replay may start this little in the future of our clock (the caller's clock may run ahead). */
const CLOCK_SKEW_MS = 60_000;

/** A public event that cannot be delivered; the transport moves it to the topic's dead-letter queue. */
export class UndeliverableEventError extends Error {
  override readonly name = 'UndeliverableEventError';
}

/** Turns public events from Kafka into durable deliveries, lets the dispatcher send them, and re-sends on request. */
@Injectable()
export class DeliveriesService {
  /** Events arriving from the partitions consumed side by side are stored together (see GroupCommit). */
  private readonly ingests: GroupCommit<IncomingEvent, number>;

  constructor(
    private readonly store: DeliveriesStore,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly endpoints: EndpointsService,
    private readonly cursors: ListCursors,
  ) {
    this.ingests = new GroupCommit((events) => store.ingestMany(events), { maxBatch: MAX_INGEST_BATCH });
  }

  /**
   * Stores the event and a delivery for each subscribed endpoint of its tenant (idempotent on the envelope id); the
   * first attempt goes out at once, since the deliveries' insert NOTIFYs every instance's dispatcher, this one's too
   * (a wake-up here as well made every delivery cost a second claim that found nothing). The webhook body is the
   * envelope's data.
   */
  async ingest(envelope: EventEnvelope): Promise<number> {
    const { id, tenant_id: tenantId, data } = envelope;
    if (typeof id !== 'string' || !EVENT_ID.test(id)) throw new UndeliverableEventError(`event id ${JSON.stringify(id)} is not usable as a webhook-id`);
    if (typeof tenantId !== 'string' || tenantId === '') throw new UndeliverableEventError(`event ${id} has no tenant`);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UndeliverableEventError(`event ${id} has no data object`);
    const declared = (data as { event?: unknown }).event;
    const type = typeof declared === 'string' ? declared : envelope.type;
    const occurredAt = new Date(envelope.occurred_at);
    const event: IncomingEvent = {
      id,
      tenantId,
      type,
      body: JSON.stringify(data),
      occurredAt: Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt,
      orderingKey: orderingKeyOf(tenantId, type, data as Record<string, unknown>),
    };
    // A failed batch is tried again one event at a time, so an event the database refuses fails alone.
    return this.ingests.add(event).catch(async () => (await this.store.ingestMany([event]))[0]);
  }

  /** Queues a `webhook.test` event to this endpoint only; answers its webhook-id. */
  async sendTest(tenantId: string, endpointId: string): Promise<string> {
    await this.enabledEndpoint(tenantId, endpointId);
    const at = new Date();
    const id = newId('evt');
    const body = { event: 'webhook.test', tenant_id: tenantId, endpoint_id: endpointId, at: at.toISOString() };
    // its insert NOTIFYs the dispatchers (see ingest)
    await this.store.ingestForEndpoint(tenantId, endpointId, { id, tenantId, type: body.event, body: JSON.stringify(body), occurredAt: at, orderingKey: null });
    return id;
  }

  /** An endpoint's deliveries, newest first, each with its attempts. */
  async list(tenantId: string, endpointId: string, status: unknown, limit: number, cursor: string | null): Promise<Page<WebhookDeliveryRecord>> {
    if (status !== null && status !== undefined && !DELIVERY_STATUSES.includes(status as WebhookDeliveryStatus)) {
      throw new ProblemException(validationProblem([{ field: 'status', message: `status must be one of: ${DELIVERY_STATUSES.join(', ')}` }], 'The query is not valid.'));
    }
    const cursors = this.cursors.of(tenantId, `webhooks/${endpointId}/deliveries`);
    const after = cursors.after(cursor);
    await this.endpoints.get(tenantId, endpointId);
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const rows = await this.store.listDeliveries(tenantId, endpointId, (status as WebhookDeliveryStatus | null | undefined) ?? null, take + 1, after);
    const page = rows.slice(0, take);
    const attempts = await this.store.attemptsOf(
      tenantId,
      page.map((r) => r.id),
    );
    return { data: page.map((row) => toDeliveryRecord(row, attempts)), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /**
   * One delivery with the exact body its attempts sign and send, and the headers every attempt carries (the
   * per-attempt timestamp and signature aside; never the secret). A purged event takes its deliveries with it: 404.
   */
  async get(tenantId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
    await this.endpoints.get(tenantId, endpointId);
    const row = hasPrefix(deliveryId, 'dlv') ? await this.store.findDelivery(tenantId, endpointId, deliveryId) : undefined;
    if (!row) throw new ProblemException(notFoundProblem(`Delivery "${deliveryId}"`));
    const attempts = await this.store.attemptsOf(tenantId, [row.id]);
    return {
      ...toDeliveryRecord(row, attempts),
      payload: JSON.parse(row.payload) as Record<string, unknown>,
      request_headers: deliveryHeaders(row.event_id),
    };
  }

  /** Sends one delivery again now, with the same webhook-id and a fresh retry schedule. */
  async retry(tenantId: string, endpointId: string, deliveryId: string): Promise<void> {
    await this.enabledEndpoint(tenantId, endpointId);
    const found = hasPrefix(deliveryId, 'dlv') && (await this.store.resend(tenantId, endpointId, deliveryId));
    if (!found) throw new ProblemException(notFoundProblem(`Delivery "${deliveryId}"`));
    this.dispatcher.wake();
  }

  /** Sends again every kept event since `since` that the endpoint subscribes to; answers how many deliveries. */
  async replay(tenantId: string, endpointId: string, rawBody: unknown): Promise<number> {
    const body = await validateDto(ReplayWebhookBody, rawBody);
    const since = new Date(body.since);
    const now = Date.now();
    if (since.getTime() < now - EVENT_RETENTION_DAYS * DAY_MS || since.getTime() > now + CLOCK_SKEW_MS) {
      throw new ProblemException(validationProblem([{ field: 'since', message: `since must lie within the last ${EVENT_RETENTION_DAYS} days (events are kept that long)` }]));
    }
    await this.enabledEndpoint(tenantId, endpointId);
    const count = await this.store.replay(tenantId, endpointId, since);
    // A delivery made pending again is an update, which NOTIFYs nobody (new ones do, see ingest).
    if (count > 0) this.dispatcher.wake();
    return count;
  }

  /** The tenant's endpoint (404 otherwise); a disabled one would never send, so re-sending to it is a conflict. */
  private async enabledEndpoint(tenantId: string, endpointId: string): Promise<WebhookEndpointRecord> {
    const endpoint = await this.endpoints.get(tenantId, endpointId);
    if (!endpoint.enabled) {
      throw new ProblemException(problem(409, ProblemTypes.conflict, 'Endpoint disabled', `Webhook "${endpointId}" is disabled; enable it (PATCH enabled: true) first.`));
    }
    return endpoint;
  }
}
