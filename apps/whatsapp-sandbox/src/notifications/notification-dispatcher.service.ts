import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { GroupCommit, WorkerLoop, type PassOutcome } from '@parley/service-kit';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { GatewayNotifier, NOTIFY_TIMEOUT_MS, describeFailure } from './gateway-notifier.service';
import { NotificationOutbox, type ClaimedNotification, type Settlement } from './notification-outbox.store';
import { pastGiveUp, retryDelayMs } from './retry-schedule';

/** POSTs under way at once. */
const MAX_IN_FLIGHT = 64;
/** Free slots worth a claim: fewer would cost a round trip per notification under load. */
const MIN_CLAIM = 16;
/** How often a dispatcher with notifications in flight looks for more that came due (their settlements wake it too). */
const BUSY_POLL_MS = 200;
/**
 * Longest sleep of an idle dispatcher, which otherwise sleeps until its next notification is due (recording one wakes
 * it): the safety sweep, for what nothing announced (rows another process wrote).
 */
const SWEEP_MS = 30_000;
/** A claim outlives the POST's own time-out, so a live instance's attempt is never taken over; a dead one's is, after this. */
export const LEASE_MS = NOTIFY_TIMEOUT_MS + 5_000;

/**
 * Delivers the outbox to the gateway as Meta delivers webhooks: at least once, retrying anything but a 200 with
 * growing pauses until each notification's horizon (SANDBOX_NOTIFY_RETRY_MS; a day for statuses, seven for customers'
 * messages). Claims in batches, POSTs concurrently (one notification per key at a time, so a message's statuses and a
 * customer's messages keep their order), and records the outcomes in batches. Anything not yet taken when the sandbox
 * dies is picked up by the next instance.
 */
@Injectable()
export class NotificationDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationDispatcher.name);
  private readonly stopping = new AbortController();
  private readonly settler: GroupCommit<Settlement, void>;
  private readonly inFlight = new Set<Promise<unknown>>();
  // held, not inherited (BackgroundWorker): it must stop before the database closes, to record the POSTs it interrupts
  private readonly loop = new WorkerLoop({
    name: 'notifications',
    pass: () => this.dispatchDue(),
    sweepMs: SWEEP_MS,
    minSleepMs: BUSY_POLL_MS,
    retryPauseMs: 1_000,
    logger: this.logger,
  });

  constructor(
    private readonly config: WhatsappSandboxConfig,
    private readonly outbox: NotificationOutbox,
    private readonly notifier: GatewayNotifier,
  ) {
    // each of the MAX_IN_FLIGHT POSTs listens for the stop while it runs
    setMaxListeners(MAX_IN_FLIGHT, this.stopping.signal);
    this.settler = new GroupCommit<Settlement, void>(async (settlements) => {
      await this.outbox.settle(settlements);
      this.wake(); // a settled notification may free the next one of its key
      return settlements.map(() => undefined);
    });
  }

  /** Always on: status callbacks (unless off) and customers' messages the gateway has not taken yet both wait here. */
  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /**
   * One attempt now, off the queue, at a notification its recorder claimed (NotificationOutbox.recordClaimed): true
   * when the gateway took it. Otherwise it stays owed and is retried on the schedule like any other.
   */
  deliverClaimed(notification: ClaimedNotification): Promise<boolean> {
    const attempt = this.attempt(notification);
    this.track(attempt);
    return attempt;
  }

  /** Something was recorded or settled: look for due notifications now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming, interrupts the POSTs under way and hands their notifications back (due at once) before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await Promise.all([...this.inFlight]);
  }

  /** Claims what is due as far as there are free slots and starts its POSTs; says when to look again. */
  private async dispatchDue(): Promise<PassOutcome> {
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free >= MIN_CLAIM) {
      const claimed = await this.outbox.claim(free, LEASE_MS);
      for (const notification of claimed) this.track(this.attempt(notification));
      if (claimed.length === free) return 'more';
    }
    return this.inFlight.size > 0 ? BUSY_POLL_MS : this.outbox.nextDueInMs();
  }

  private track(attempt: Promise<unknown>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      this.wake();
    });
  }

  /** Resolves whether the gateway took the notification (the outcome is recorded either way). */
  private async attempt(notification: ClaimedNotification): Promise<boolean> {
    const failure = await this.notifier.postBody(notification.body, this.stopping.signal).then(
      (status) => (status === 200 ? null : `the gateway answered ${status}`),
      describeFailure,
    );
    await this.settler.add(this.settlementOf(notification, failure)).catch((err: unknown) => {
      this.logger.warn(`could not record the outcome of notification ${notification.id}; it goes out again after its lease: ${String(err)}`);
    });
    return failure === null;
  }

  private settlementOf({ id, attempts, giveUpAt, messageKey }: ClaimedNotification, failure: string | null): Settlement {
    if (failure === null) return { id, attempts, outcome: 'delivered' };
    if (this.stopping.signal.aborted) return { id, attempts, outcome: 'retry', delayMs: 0, error: 'interrupted: the sandbox stopped' };
    if (pastGiveUp(giveUpAt)) {
      this.logger.warn(`gave up on notification ${id} (${messageKey}) after ${attempts} attempts: ${failure}`);
      return { id, attempts, outcome: 'dropped' };
    }
    const delayMs = retryDelayMs(this.config.notifyRetryDelaysMs, attempts);
    this.logger.debug(`notification ${id} (${messageKey}): ${failure}; retrying in ${delayMs} ms`);
    return { id, attempts, outcome: 'retry', delayMs, error: failure };
  }
}
