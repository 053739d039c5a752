import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, WorkerLoop, type PassOutcome } from '@parley/service-kit';

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
 * The one relay of agent-service's announced rows (agents on `agent.changed`, documents on `document.changed`), a
 * service-kit background worker. Each change is announced by its writer right after its commit; the relay takes over
 * what that did not finish: a publish that failed (the writer wakes the relay, which retries every RELAY_RETRY_MS while
 * rows are behind), rows a transaction left for it (a deleted agent's documents), and, in its slow sweep, a crash in
 * between. Writers of other instances announce their own rows, so no NOTIFY is needed: it would only race their
 * announcements.
 */
@Injectable()
export class AnnouncementRelay extends BackgroundWorker {
  private readonly logger = new Logger(AnnouncementRelay.name);
  private readonly sources: PendingAnnouncements[] = [];
  protected readonly loop = new WorkerLoop({ name: 'announcement relay', pass: () => this.pass(), sweepMs: RELAY_SWEEP_MS, logger: this.logger });

  /** Called by each owner of announced rows (in its constructor). */
  register(source: PendingAnnouncements): void {
    this.sources.push(source);
  }

  /** A writer's publish failed: its rows are behind; relayed in RELAY_RETRY_MS (not at once: the broker is unlikely to be back already). */
  retrySoon(): void {
    this.loop.wakeIn(RELAY_RETRY_MS);
  }

  /** One batch of every source; then again in RELAY_RETRY_MS if any had rows behind, else at the sweep. */
  private async pass(): Promise<PassOutcome> {
    let behind = 0;
    for (const source of this.sources) {
      try {
        behind += await source.relayPending();
      } catch (err) {
        this.logger.warn(`relaying ${source.name} failed: ${String(err)}`);
        behind += 1;
      }
    }
    return behind > 0 ? RELAY_RETRY_MS : null;
  }
}
