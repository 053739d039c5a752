import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { GapPlacer } from './gap-placer';
import { GapsStore } from './gaps.store';

/** Questions grouped per transaction: one read of each agent's open gaps serves them all. */
const BATCH = 100;
/** Looks for questions no wake-up announced: queued by a reply whose instance died before its worker ran, or by another instance. */
const SWEEP_MS = 5_000;

/**
 * Groups the questions replies queued (`knowledge_gap_pending`) into knowledge gaps after their commit, off the
 * conversation's lock and transaction: claims the oldest (FOR UPDATE SKIP LOCKED, so instances share the queue),
 * places them (GapPlacer), deletes them and queues `agent.gap_opened` in the same transaction. A crash rolls the batch
 * back to pending: each question counts exactly once. Woken by this instance's replies after they commit; sweeps for
 * the rest.
 */
@Injectable()
export class GapWorker extends BackgroundWorker {
  private readonly logger = new Logger(GapWorker.name);
  // a full batch may have more behind it
  protected readonly loop = new WorkerLoop({ name: 'knowledge gaps', pass: async () => ((await this.placeBatch()) < BATCH ? null : 'more'), sweepMs: SWEEP_MS, logger: this.logger });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: GapsStore,
    private readonly placer: GapPlacer,
    private readonly relay: OutboxRelay,
  ) {
    super();
  }


  /** Places one batch of pending questions; answers how many it claimed. */
  async placeBatch(): Promise<number> {
    return this.relay.relayAfter(
      (work) => this.db.transaction(work),
      async (tx) => {
        const asked = await this.store.claimPending(tx, BATCH);
        if (asked.length === 0) return 0;
        const done = asked.map((a) => ({ tenantId: a.tenantId, messageId: a.occurrence.messageId }));
        const { opened } = await this.placer.place(tx, asked, done);
        await enqueueEvents(tx, opened);
        return asked.length;
      },
    );
  }
}
