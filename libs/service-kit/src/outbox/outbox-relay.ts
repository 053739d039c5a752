import { Logger } from '@nestjs/common';
import { Headers, type EventEnvelope } from '@parley/contracts';
import type { EventPublisher } from '@parley/kafka';
import type { DataSource, EntityManager } from 'typeorm';
import { BackgroundWorker, WorkerLoop, type PassOutcome } from '../scheduling/worker-loop';

/** An event to publish once the transaction that decided it commits. */
export interface OutboxEvent {
  topic: string;
  /** The Kafka key: the event's ordering unit. */
  key: string;
  envelope: EventEnvelope;
}

/** The transactions (their entity managers) that queued events: only their commits need a relay pass (relayAfter). */
const queuedIn = new WeakSet<EntityManager>();

/**
 * Queues events in the caller's transaction, in a service's `outbox (id bigserial, topic, key, envelope jsonb)` table:
 * they are published by the relay only if the transaction commits, and then surely.
 */
export async function enqueueOutboxEvents(manager: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await manager.query(`INSERT INTO outbox (topic, key, envelope) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`, [
    events.map((e) => e.topic),
    events.map((e) => e.key),
    events.map((e) => JSON.stringify(e.envelope)),
  ]);
  queuedIn.add(manager);
}

/** A store's way of running work in one transaction (`DataSource.transaction`, a store's `transaction`). */
export type RunsInTransaction = <R>(work: (tx: EntityManager) => Promise<R>) => Promise<R>;

export interface OutboxRelayOptions {
  /** The advisory lock that makes one instance of the service the relay at a time, so events keep their order. */
  lockKey: number;
  /** Rows claimed per pass. */
  batch: number;
  /** The safety sweep: finds rows no wake-up announced (another instance's, or left by a crash before the publish). */
  sweepMs: number;
  publishTimeoutMs?: number;
}

/** Another instance is relaying: look again soon, since what woke this one may be behind its batch. */
const LOCKED_PAUSE_MS = 100;

/**
 * The relay of a service's outbox, one of service-kit's background workers (a WorkerLoop): claims the oldest rows
 * under the relay lock, publishes them and deletes them in the same transaction, batch after batch while there are
 * more, then sleeps until a commit that queued events wakes it or the sweep comes round. A failed publish rolls back
 * and is tried again: an event may go out twice (consumers deduplicate on the envelope id), never not at all. Each
 * service subclasses it as its injectable relay with its lock and pace.
 */
export abstract class OutboxRelay extends BackgroundWorker {
  protected readonly loop: WorkerLoop;

  constructor(
    private readonly db: DataSource,
    private readonly publisher: EventPublisher,
    private readonly options: OutboxRelayOptions,
  ) {
    super();
    this.loop = new WorkerLoop({ name: 'outbox relay', pass: () => this.pass(), sweepMs: options.sweepMs, logger: new Logger('OutboxRelay') });
  }

  /**
   * Runs `work` in a transaction (`transaction`: the store's) and, once it has committed, wakes the relay if `work`
   * queued events. A commit that queued none costs no pass: a transaction, the relay's lock and a claim for nothing,
   * which an unconditional wake-up paid after every write of a hot path.
   */
  async relayAfter<T>(transaction: RunsInTransaction, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    let queued = false;
    const result = await transaction(async (tx) => {
      const value = await work(tx);
      queued = queuedIn.has(tx);
      return value;
    });
    if (queued) this.wake();
    return result;
  }

  private async pass(): Promise<PassOutcome> {
    const published = await this.relayBatch();
    if (published === null) return LOCKED_PAUSE_MS;
    return published === this.options.batch ? 'more' : null;
  }

  /** One batch: the number of events published, or null when another instance holds the relay. */
  private relayBatch(): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const [{ locked }] = await tx.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [this.options.lockKey]);
      if (!locked) return null;
      const rows: ({ id: string } & OutboxEvent)[] = await tx.query(`SELECT id, topic, key, envelope FROM outbox ORDER BY id LIMIT $1`, [this.options.batch]);
      if (rows.length === 0) return 0;
      await this.publisher.publish(
        rows.map((row) => ({ topic: row.topic, key: row.key, value: row.envelope, headers: { [Headers.EventType]: row.envelope.type } })),
        { timeoutMs: this.options.publishTimeoutMs ?? 10_000 },
      );
      await tx.query(`DELETE FROM outbox WHERE id = ANY($1::bigint[])`, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }
}
