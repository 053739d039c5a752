import type { EventEnvelope } from '@parley/contracts';
import type { EntityManager } from 'typeorm';

export interface QueuedEvent {
  envelope: EventEnvelope;
  /** The Kafka key: the event's ordering unit. */
  key: string;
}

/** Queues events in the caller's transaction: they are published only if it commits, and then surely. */
export async function enqueueEvents(manager: EntityManager, events: QueuedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await manager.query(`INSERT INTO outbox (topic, key, envelope) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`, [
    events.map((e) => e.envelope.type),
    events.map((e) => e.key),
    events.map((e) => JSON.stringify(e.envelope)),
  ]);
}
