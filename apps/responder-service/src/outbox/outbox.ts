import { Headers } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import type { StoredEvent } from '../replies/processed-message.entity';

/** Queues events in the caller's transaction: published by the relay only if it commits, and then surely. */
export async function enqueueEvents(tx: EntityManager, events: StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(`INSERT INTO outbox (topic, key, envelope) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`, [
    events.map((e) => e.topic),
    events.map((e) => e.key),
    events.map((e) => JSON.stringify(e.value)),
  ]);
}

/** The Kafka message of a queued event (the envelope id is what consumers deduplicate on). */
export function toKafkaMessage(row: { topic: string; key: string; envelope: StoredEvent['value'] }) {
  return { topic: row.topic, key: row.key, value: row.envelope, headers: { [Headers.EventType]: row.envelope.type } };
}
