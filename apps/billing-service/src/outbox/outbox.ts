import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@parley/contracts';
import { enqueueOutboxEvents, type RunsInTransaction } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { OutboxRelay } from './outbox-relay';

/**
 * Events decided inside a database transaction are written to `outbox` in that transaction and published after it
 * commits (service-kit's outbox), so an event is neither lost (the row outlives a crash) nor sent for a rolled-back
 * change. The wallet's unit tests replace it with their own.
 */
@Injectable()
export class Outbox {
  constructor(private readonly relay: OutboxRelay) {}

  add(manager: EntityManager, envelope: EventEnvelope, key: string): Promise<void> {
    return this.addMany(manager, [{ envelope, key }]);
  }

  /** Many events in one statement (none: no statement). */
  addMany(manager: EntityManager, events: readonly { envelope: EventEnvelope; key: string }[]): Promise<void> {
    return enqueueOutboxEvents(
      manager,
      events.map((e) => ({ topic: e.envelope.type, key: e.key, envelope: e.envelope })),
    );
  }

  /** Runs `work` in `transaction` and publishes what it queued once it has committed (nothing queued: no relay pass). */
  relayAfter<T>(transaction: RunsInTransaction, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.relay.relayAfter(transaction, work);
  }
}
