import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { sleepUntilDue } from '@parley/service-kit';
import { MediaDownloadsStore } from './media-downloads.store';

/** Runs `pass` in its own loop until stopped, sleeping until the next row is due (woken early by new rows). */
@Injectable()
export class MediaDownloadLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MediaDownloadLoop.name);
  private running = false;
  private loop: Promise<void> | null = null;
  private pass: (() => Promise<number>) | null = null;

  constructor(private readonly downloads: MediaDownloadsStore) {}

  /** The work of one pass (MediaDownloadWorker registers it); answers how many rows it took. */
  register(pass: () => Promise<number>): void {
    this.pass = pass;
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.downloads.wakeup.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failing = 0;
    while (this.running) {
      let sleepMs: number;
      try {
        const taken = this.pass ? await this.pass() : 0;
        failing = 0;
        sleepMs = taken > 0 ? 0 : sleepUntilDue(await this.downloads.nextDueInMs(), 50, 5_000);
      } catch (err) {
        failing++;
        this.logger.warn(`media download pass failed: ${String(err)}`);
        sleepMs = Math.min(5_000, 100 * 2 ** failing);
      }
      if (sleepMs > 0 && this.running) await this.downloads.wakeup.sleep(sleepMs);
    }
  }
}
