import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BurstStore } from './burst.store';

/** How long acknowledged outcomes wait to be marked together. */
export const MARK_DELAY_MS = 100;

/**
 * Marks outcomes whose events the broker acknowledged, many per statement: one UPDATE per message was a database round
 * trip of its own, and round trips are most of the responder's CPU. A mark only spares a redelivery republishing
 * (consumers deduplicate the stored ids anyway), so it may lag: until it is written, this instance remembers it
 * (`isMarked`), and a crash before then costs at most a republish, as a crash between commit and publish always did.
 */
@Injectable()
export class PublishedMarks implements OnApplicationShutdown {
  private readonly logger = new Logger(PublishedMarks.name);
  /** Acknowledged outcomes not yet known to be written, by `tenant\u0000inbound message id`. */
  private readonly pending = new Map<string, { tenantId: string; inboundMessageId: string }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records outcomes as acknowledged; they are written within about MARK_DELAY_MS. */
  mark(tenantId: string, inboundMessageIds: string[]): void {
    for (const inboundMessageId of inboundMessageIds) this.pending.set(keyOf(tenantId, inboundMessageId), { tenantId, inboundMessageId });
    this.timer ??= setTimeout(() => void this.flush(), MARK_DELAY_MS);
  }

  /** Acknowledged here but perhaps not written yet. */
  isMarked(tenantId: string, inboundMessageId: string): boolean {
    return this.pending.has(keyOf(tenantId, inboundMessageId));
  }

  /** Writes every pending mark (one statement); marks that fail stay pending for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async write(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    if (batch.length === 0) return;
    try {
      await BurstStore.markPublished(
        this.db.manager,
        batch.map(([, m]) => m),
      );
      // A mark made again meanwhile is the same mark: it is written now.
      for (const [key] of batch) this.pending.delete(key);
    } catch (err) {
      this.logger.warn(`marking ${batch.length} outcomes published failed (retried): ${String(err)}`);
      this.timer ??= setTimeout(() => void this.flush(), MARK_DELAY_MS);
    }
  }
}

function keyOf(tenantId: string, inboundMessageId: string): string {
  return `${tenantId}\u0000${inboundMessageId}`;
}
