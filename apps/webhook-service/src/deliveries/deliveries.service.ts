import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@parley/contracts';
import { DeliveriesStore } from './deliveries.store';
import { DeliveryDispatcher } from './delivery-dispatcher';

/** webhook-id goes into the signed content `id.timestamp.body`, so it may not contain a full stop. */
const EVENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A public event that cannot be delivered; the transport moves it to the topic's dead-letter queue. */
export class UndeliverableEventError extends Error {
  override readonly name = 'UndeliverableEventError';
}

/** Turns public events from Kafka into durable deliveries, then lets the dispatcher send them. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly store: DeliveriesStore,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  /**
   * Stores the event and a delivery for each subscribed endpoint of its tenant (idempotent on the envelope id),
   * then wakes the dispatcher so the first attempt goes out at once. The webhook body is the envelope's data.
   */
  async ingest(envelope: EventEnvelope): Promise<number> {
    const { id, tenant_id: tenantId, data } = envelope;
    if (typeof id !== 'string' || !EVENT_ID.test(id)) throw new UndeliverableEventError(`event id ${JSON.stringify(id)} is not usable as a webhook-id`);
    if (typeof tenantId !== 'string' || tenantId === '') throw new UndeliverableEventError(`event ${id} has no tenant`);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UndeliverableEventError(`event ${id} has no data object`);
    const declared = (data as { event?: unknown }).event;
    const type = typeof declared === 'string' ? declared : envelope.type;
    const occurredAt = new Date(envelope.occurred_at);

    const created = await this.store.ingest({
      id,
      tenantId,
      type,
      body: JSON.stringify(data),
      occurredAt: Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt,
    });
    if (created > 0) this.dispatcher.wake();
    return created;
  }
}
