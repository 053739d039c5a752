import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, periodicLoop } from '@parley/service-kit';
import { MediaService } from './media.service';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * At start and hourly: removes media past MEDIA_RETENTION_DAYS. Durable by construction: what is due is whatever
 * the table says has expired, so a sweep missed while no instance ran is made by the next one.
 */
@Injectable()
export class MediaRetention extends BackgroundWorker {
  private readonly logger = new Logger(MediaRetention.name);
  protected readonly loop = periodicLoop({ name: 'media retention', everyMs: SWEEP_INTERVAL_MS, sweep: () => this.sweepAndTell(), logger: this.logger });

  constructor(private readonly media: MediaService) {
    super();
  }

  private async sweepAndTell(): Promise<void> {
    const removed = await this.sweep();
    if (removed > 0) this.logger.log(`removed ${removed} expired media files`);
  }

  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.media.sweepExpired();
      total += removed;
      if (removed === 0) return total;
    }
  }
}
