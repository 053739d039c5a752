import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

/** A pass that found pending rows looks again this soon (a publish that failed is retried at this pace). */
export const RELAY_RETRY_MS = 2_000;
/**
 * Otherwise the relay sleeps this long: the safety sweep for what no write announced, a crash between a commit and
 * its announcement (the restarted service's first pass finds those too).
 */
export const RELAY_SWEEP_MS = 60_000;

/** Rows that carry `version` and `published_version`: announces up to a batch of those behind; answers how many it found. */
export interface PendingAnnouncements {
  readonly name: string;
  relayPending(): Promise<number>;
}

/**
 * The one relay of agent-service's announced rows (agents on `agent.changed`, documents on `document.changed`). Each
 * change is announced by its writer right after its commit; the relay takes over what that did not finish: a publish
 * that failed (the writer wakes the relay, which retries every RELAY_RETRY_MS while rows are behind), rows a
 * transaction left for it (a deleted agent's documents), and, in its slow sweep, a crash in between. Writers of other
 * instances announce their own rows, so no NOTIFY is needed: it would only race their announcements.
 */
@Injectable()
export class AnnouncementRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AnnouncementRelay.name);
  private readonly sources: PendingAnnouncements[] = [];
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  /** Called by each owner of announced rows (in its constructor). */
  register(source: PendingAnnouncements): void {
    this.sources.push(source);
  }

  /** Relays now: a write left rows behind (its publish failed, or it left them to the relay). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** A publish failed: relays again in RELAY_RETRY_MS (not at once: the broker is unlikely to be back already). */
  retrySoon(): void {
    this.passIn(RELAY_RETRY_MS);
  }

  /** A pass in `ms` unless one is due sooner. */
  private passIn(ms: number): void {
    const at = Date.now() + ms;
    if (this.stopped || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      this.wake();
    }, ms);
    this.timer.unref();
  }

  /** One batch of every source; then a retry soon if any had rows behind, else the sweep. */
  private async pass(): Promise<void> {
    let behind = 0;
    for (const source of this.sources) {
      try {
        behind += await source.relayPending();
      } catch (err) {
        this.logger.warn(`relaying ${source.name} failed: ${String(err)}`);
        behind += 1;
      }
    }
    this.passIn(behind > 0 ? RELAY_RETRY_MS : RELAY_SWEEP_MS);
  }

  onApplicationBootstrap(): void {
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
