import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EventEnvelope } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { Wakeup } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { OutboxStore } from './outbox.store';

/** A crash between commit and publish leaves the row here; the sweep publishes it then. */
const SWEEP_MS = 5_000;
const BATCH = 100;

/**
 * Events decided inside a database transaction are written to `outbox` in that transaction and published after it
 * commits, so an event is neither lost (the row outlives a crash) nor sent for a rolled-back change.
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Outbox.name);
  private readonly wakeup = new Wakeup();
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly store: OutboxStore,
    private readonly publisher: EventPublisher,
  ) {}

  async add(manager: EntityManager, envelope: EventEnvelope, key: string): Promise<void> {
    await this.store.insert(envelope, key, manager);
  }

  /** Many events in one statement (none: no statement). */
  async addMany(manager: EntityManager, events: readonly { envelope: EventEnvelope; key: string }[]): Promise<void> {
    await this.store.insertMany(events, manager);
  }

  /** Called after a commit that may have queued events. */
  flushSoon(): void {
    this.wakeup.wake();
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wakeup.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        while (this.running && (await this.publishBatch()) === BATCH);
      } catch (err) {
        this.logger.warn(`publishing the outbox failed, retrying: ${String(err)}`);
      }
      await this.wakeup.sleep(SWEEP_MS);
    }
  }

  private async publishBatch(): Promise<number> {
    const rows = await this.store.oldest(BATCH);
    if (!rows.length) return 0;
    await this.publisher.publish(
      rows.map((row) => ({ topic: row.topic, key: row.key, value: row.envelope, headers: { 'event-type': row.envelope.type } })),
      { timeoutMs: 10_000 },
    );
    await this.store.delete(rows.map((row) => row.id));
    return rows.length;
  }
}
