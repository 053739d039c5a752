import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MediaService } from './media.service';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Hourly (and at start): removes media past MEDIA_RETENTION_DAYS. Durable by construction: what is due is whatever
 * the table says has expired, so a sweep missed while no instance ran is made by the next one.
 */
@Injectable()
export class MediaRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MediaRetention.name);
  private timer?: NodeJS.Timeout;

  constructor(private readonly media: MediaService) {}

  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.media.sweepExpired();
      total += removed;
      if (removed === 0) return total;
    }
  }

  onApplicationBootstrap(): void {
    const run = (): void =>
      void this.sweep().then(
        (n) => n > 0 && this.logger.log(`removed ${n} expired media files`),
        (err: unknown) => this.logger.warn(`media sweep failed: ${String(err)}`),
      );
    void run();
    this.timer = setInterval(run, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
