import type { EventEnvelope } from '@parley/contracts';
import { enqueueOutboxEvents } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';

export interface QueuedEvent {
  envelope: EventEnvelope;
  /** The Kafka key: the event's ordering unit. */
  key: string;
}

/** Queues events in the caller's transaction: they are published only if it commits, and then surely. */
export function enqueueEvents(manager: EntityManager, events: QueuedEvent[]): Promise<void> {
  return enqueueOutboxEvents(
    manager,
    events.map((e) => ({ topic: e.envelope.type, key: e.key, envelope: e.envelope })),
  );
}
