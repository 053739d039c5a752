import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventPublisher } from '@parley/kafka';
import { Wakeup } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import type { StoredEvent } from '../replies/processed-message.entity';
import { toKafkaMessage } from './outbox';

const BATCH = 500;
const PUBLISH_TIMEOUT_MS = 10_000;
const RETRY_PAUSE_MS = 1_000;
const LOCKED_PAUSE_MS = 100;
/** The safety sweep: finds rows no wake-up announced (another instance's, or left by a crash before the publish). */
const SWEEP_MS = 2_000;
/** One relay at a time across instances (held by the claiming transaction), so a conversation's events keep their order. */
const RELAY_LOCK = 0x72737001;

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  envelope: StoredEvent['value'];
}

/**
 * Publishes the outbox in order: claims the oldest rows under the relay lock, publishes them, deletes them in the
 * same transaction. A failed publish rolls back and is tried again: an event may go out twice (consumers deduplicate
 * on the envelope id; a reply's message id is fixed when it is written), never not at all.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly wakeup = new Wakeup();
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly publisher: EventPublisher,
  ) {}

  /** Called after a transaction that queued events committed. */
  wake(): void {
    this.wakeup.wake();
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeup.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let published: number | null = 0;
      try {
        published = await this.relayBatch();
      } catch (err) {
        if (this.stopped) return;
        this.logger.warn(`outbox relay failed, retrying: ${String(err)}`);
        await this.wakeup.sleep(RETRY_PAUSE_MS);
        continue;
      }
      if (published === null) await this.wakeup.sleep(LOCKED_PAUSE_MS);
      else if (published < BATCH) await this.wakeup.sleep(SWEEP_MS);
    }
  }

  /** One pass: the number of events published, or null when another instance holds the relay. */
  private relayBatch(): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const [{ locked }] = await tx.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [RELAY_LOCK]);
      if (!locked) return null;
      const rows: OutboxRow[] = await tx.query(`SELECT id, topic, key, envelope FROM outbox ORDER BY id LIMIT $1`, [BATCH]);
      if (rows.length === 0) return 0;
      await this.publisher.publish(rows.map(toKafkaMessage), { timeoutMs: PUBLISH_TIMEOUT_MS });
      await tx.query(`DELETE FROM outbox WHERE id = ANY($1::bigint[])`, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }
}
