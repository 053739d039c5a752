import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { PgListener, WorkerLoop, type PassOutcome } from '@parley/service-kit';
import { Counter, Histogram } from 'prom-client';
import { WebhookServiceConfig } from '../config/webhook-service.config';
import { WebhookHttpClient, type WebhookPostResult } from '../egress/webhook-http-client';
import { DELIVERIES_CHANNEL, DeliveriesStore, type AttemptOutcome, type AttemptRecord, type ClaimedDelivery } from './deliveries.store';
import { decideAfterAttempt } from './retry-policy';
import { webhookHeaders } from './signing';
import { SuccessRecorder } from './success-recorder';

/** Attempts in flight in this process. */
export const MAX_IN_FLIGHT = 128;
/**
 * Attempts in flight per endpoint (across workers), so one slow endpoint cannot take every slot. It is also the
 * most one endpoint gets at once: as many as the HTTP client keeps sockets per origin.
 */
export const PER_ENDPOINT_IN_FLIGHT = 16;
/**
 * While rows due now are held back (by an endpoint's cap, or an earlier delivery of their conversation in flight, here
 * or in another instance), and after a failed claim, the queue is looked at again this often.
 */
const BUSY_RECHECK_MS = 500;
/**
 * Longest sleep of an idle dispatcher: the safety sweep. New work wakes it (in-process, or NOTIFY from another
 * instance) and retries by a timer set to the next due time, so this finds only what no wake-up announced: a
 * notification lost while the LISTEN connection was down, the lease of a worker that crashed.
 */
const SWEEP_MS = 30_000;
/** A claim's lease beyond the request time-out, after which a crashed worker's claim is due again. */
const LEASE_MARGIN_SECONDS = 30;

const attempts = new Counter({ name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'] });
const attemptDuration = new Histogram({
  name: 'webhook_delivery_attempt_duration_seconds',
  help: 'Duration of one webhook POST',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
});
const dispatchLag = new Histogram({
  name: 'webhook_delivery_dispatch_lag_seconds',
  help: 'Time from a delivery being due to its attempt starting',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
});

/**
 * Works the delivery queue in Postgres, apart from the Kafka consumers (a slow endpoint never blocks a partition):
 * claims due deliveries with leases, POSTs each signed event, records every attempt and schedules the next.
 * Woken at once when new deliveries are stored, by the NOTIFY their insert's trigger sends (from this instance or
 * another) or by whoever queued them; an idle dispatcher sleeps until its next retry is due. Its passes run on
 * service-kit's `WorkerLoop`, like every queue worker; what is its own is that a pass launches attempts without waiting
 * for them, each taking a slot until it ends, and that an attempt's end wakes it only when that can free work.
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryDispatcher.name);
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly schedule: number[];
  private readonly leaseSeconds: number;
  private wakeScheduled = false;
  /**
   * Whether the last pass left due work that an attempt's end may free: every slot was taken, or rows due now were held
   * back (their endpoint at its cap, an earlier delivery of their conversation in flight). Otherwise a success frees
   * nothing another pass could claim, and waking for it cost two statements a delivery that found nothing (issue 33).
   */
  private waitingOnAttempts = true;
  /** Attempts ended so far; a pass that sees one end meanwhile looks again, since its own look may predate it. */
  private attemptsEnded = 0;
  private readonly listener: PgListener;
  /**
   * Passes run in the loop's own context (started at bootstrap), not a waker's: a wake-up from a Kafka handler must
   * not tag every attempt of the batch it starts with that one message's request id.
   */
  private readonly loop = new WorkerLoop({
    name: 'webhook deliveries',
    pass: () => this.claimForFreeSlots(),
    sweepMs: SWEEP_MS,
    // a row due now but held back (its endpoint's cap, an earlier delivery of its conversation) is looked at again this
    // soon; so is the queue after a failed claim (the database away)
    minSleepMs: BUSY_RECHECK_MS,
    retryPauseMs: BUSY_RECHECK_MS,
    logger: this.logger,
  });

  constructor(
    private readonly store: DeliveriesStore,
    private readonly successes: SuccessRecorder,
    private readonly http: WebhookHttpClient,
    private readonly config: WebhookServiceConfig,
  ) {
    // Every request in flight listens for shutdown on this one signal; more than Node's default of 10 is expected.
    setMaxListeners(MAX_IN_FLIGHT * 2, this.shutdown.signal);
    this.schedule = config.retryScheduleSeconds;
    this.leaseSeconds = Math.ceil(config.WEBHOOK_TIMEOUT_MS / 1000) + LEASE_MARGIN_SECONDS;
    this.listener = new PgListener({
      url: config.DATABASE_URL,
      channels: [DELIVERIES_CHANNEL],
      applicationName: 'webhook-deliveries',
      onNotify: () => this.wake(),
      // (Re)connected: anything notified meanwhile went unheard; look once.
      onListening: () => this.wake(),
      warn: (message) => this.logger.warn(`deliveries: ${message}`),
    });
  }

  /**
   * Looks for due work right after this turn of the event loop (new deliveries were ingested, or a slot came free).
   * A batch of recorded successes frees its slots together: they are filled by one claim, not one claim for the
   * first slot and another for the rest.
   */
  wake(): void {
    if (this.shutdown.signal.aborted || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.loop.wake();
    });
  }

  /** One pass: as many due deliveries as there are free slots, each launched; then when to look again. */
  private async claimForFreeSlots(): Promise<PassOutcome> {
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0) {
      // every slot busy: each attempt that ends wakes the dispatcher
      this.waitingOnAttempts = true;
      return null;
    }
    const endedBefore = this.attemptsEnded;
    const { claimed, nextDueInMs } = await this.store.claimDue(free, PER_ENDPOINT_IN_FLIGHT, this.leaseSeconds);
    for (const delivery of claimed) this.launch(delivery);
    if (claimed.length === free) {
      this.waitingOnAttempts = true;
      return 'more'; // there may be more due
    }
    // Negative: due now but held back; null: nothing waits (the ingest's NOTIFY wakes the dispatcher for what comes).
    const heldBack = nextDueInMs !== null && nextDueInMs <= 0;
    // an attempt that ended during the claim may have freed a held-back row, with no wake-up this pass would keep
    if (heldBack && this.attemptsEnded !== endedBefore) return 'more';
    this.waitingOnAttempts = heldBack;
    return nextDueInMs;
  }

  private launch(delivery: ClaimedDelivery): void {
    dispatchLag.observe(Math.max(0, Date.now() - delivery.dueAt.getTime()) / 1000);
    const work = this.attempt(delivery)
      .catch((err: unknown) => {
        // Not recorded: the lease runs out and the attempt is made again (at least once).
        this.logger.warn(`delivery ${delivery.id} attempt not recorded: ${String(err)}`);
        return 'schedule changed' as const;
      })
      .then((ended) => {
        this.inFlight.delete(delivery.id);
        this.attemptsEnded++;
        // A success matters to the queue only if the last pass left due work behind (see waitingOnAttempts); any other
        // end may have set a retry's time, or given a delivery back.
        if (ended === 'schedule changed' || this.waitingOnAttempts) this.wake();
      });
    this.inFlight.set(delivery.id, work);
  }

  /** Makes one attempt and records it: `delivered` when it succeeded, `schedule changed` when the queue's times moved. */
  private async attempt(delivery: ClaimedDelivery): Promise<'delivered' | 'schedule changed'> {
    const attempt = delivery.attemptCount + 1;
    const attemptedAt = new Date();
    const secrets = [delivery.secret];
    if (delivery.previousSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > attemptedAt) secrets.push(delivery.previousSecret);
    const headers = webhookHeaders({ messageId: delivery.eventId, timestampSeconds: Math.floor(attemptedAt.getTime() / 1000), body: delivery.body, secrets });

    const response = await this.http.post({
      url: delivery.url,
      headers,
      body: delivery.body,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      publicOnly: this.config.isProduction,
      signal: this.shutdown.signal,
    });
    if (this.shutdown.signal.aborted) return 'schedule changed'; // cut short by shutdown: not an attempt; the lease is given back

    const decision = decideAfterAttempt({
      statusCode: response.statusCode,
      attemptsMade: attempt - delivery.retryBase,
      schedule: this.schedule,
      retryAfter: headerValue(response.headers['retry-after']),
    });
    const outcome: AttemptOutcome =
      decision.kind === 'retry'
        ? { status: 'pending', nextAttemptAt: new Date(Date.now() + decision.delayMs) }
        : decision.kind === 'gone'
          ? { status: 'gone' }
          : { status: decision.kind };
    const record: AttemptRecord = {
      attempt,
      attemptedAt,
      statusCode: response.statusCode,
      durationMs: response.durationMs,
      error: attemptError(response),
      responseExcerpt: response.responseExcerpt,
    };
    const recorded =
      outcome.status === 'succeeded' ? await this.successes.record(delivery, record) : await this.store.recordAttempt(delivery.tenantId, delivery, record, outcome);
    attempts.inc({ outcome: decision.kind });
    attemptDuration.observe(response.durationMs / 1000);
    if (!recorded) return 'schedule changed';
    if (decision.kind === 'succeeded') return 'delivered';
    if (decision.kind === 'gone') this.logger.warn(`endpoint ${delivery.endpointId} answered 410 and is disabled`);
    else if (decision.kind === 'dead') this.logger.warn(`delivery ${delivery.id} is dead after ${attempt} attempts`);
    else if (decision.kind === 'retry') this.logger.debug(`delivery ${delivery.id} attempt ${attempt} failed; next in ${decision.delayMs} ms`);
    return 'schedule changed';
  }

  onApplicationBootstrap(): void {
    this.listener.start();
    this.loop.start();
  }

  /** Stops claiming, cuts in-flight requests short and gives their deliveries back before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
    await this.loop.stop();
    const claimed = [...this.inFlight.keys()];
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.store.releaseLeases(claimed).catch((err: unknown) => this.logger.warn(`could not release leases: ${String(err)}`));
  }
}

/** The error column of an attempt: the transport failure, or why a response counts as one. */
function attemptError(response: WebhookPostResult): string | null {
  if (response.error) return response.error;
  const code = response.statusCode;
  if (code !== null && code >= 300 && code < 400) {
    const location = headerValue(response.headers.location);
    return `redirect (${code}${location ? ` to ${location.slice(0, 200)}` : ''}) not followed`;
  }
  return null;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
