import { Injectable } from '@nestjs/common';
import { DeliveriesStore, type AttemptRecord, type ClaimedDelivery } from './deliveries.store';
import { GroupCommit } from '@parley/service-kit';

/** Successes written in one statement at most (bounded parameter arrays). */
const MAX_BATCH = 500;

/**
 * Records successful attempts, the hot path of a healthy endpoint, in batches (see GroupCommit). A caller hears back
 * only once its attempt is durably recorded, exactly as with a write of its own.
 */
@Injectable()
export class SuccessRecorder {
  private readonly batches: GroupCommit<{ delivery: ClaimedDelivery; attempt: AttemptRecord }, boolean>;

  constructor(store: DeliveriesStore) {
    this.batches = new GroupCommit(async (successes) => {
      const recorded = await store.recordSuccesses(successes);
      return successes.map((s) => recorded.has(s.delivery.id));
    }, { maxBatch: MAX_BATCH });
  }

  /** Resolves true once recorded, false when the delivery had moved on (see DeliveriesStore.recordSuccesses). */
  record(delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
    return this.batches.add({ delivery, attempt });
  }
}
