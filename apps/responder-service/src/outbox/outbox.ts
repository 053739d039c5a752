import { enqueueOutboxEvents } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import type { StoredEvent } from '../replies/processed-message.entity';

/** Queues events in the caller's transaction: published by the relay only if it commits, and then surely. */
export function enqueueEvents(tx: EntityManager, events: StoredEvent[]): Promise<void> {
  return enqueueOutboxEvents(
    tx,
    events.map((e) => ({ topic: e.topic, key: e.key, envelope: e.value })),
  );
}
