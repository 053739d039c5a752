import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkerLoop, type PassOutcome } from '@parley/service-kit';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { describeFailure } from '../notifications/gateway-notifier.service';
import { retryDelayMs } from '../notifications/retry-schedule';
import { stripeSignature } from './stripe-signing';
import { StripeStore, type ClaimedStripeEvent } from './stripe.store';

/** Time the endpoint gets to answer one delivery. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** A claim outlives one delivery, so a live sandbox's attempt is never taken over; a dead one's is, after this. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const CLAIM = 16;
/** Longest idle sleep (paying wakes the dispatcher; this catches rows another process wrote). */
const SWEEP_MS = 30_000;

/**
 * Delivers Stripe events to the webhook endpoint as Stripe does: signed, at least once, retrying anything but a 2xx
 * with growing pauses (SANDBOX_NOTIFY_RETRY_MS) until the event's horizon (SANDBOX_STRIPE_GIVE_UP_MS). Events are rows,
 * so a restart loses none.
 */
@Injectable()
export class StripeEventDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StripeEventDispatcher.name);
  private readonly stopping = new AbortController();
  // held, not inherited (BackgroundWorker): it must stop before the database closes, to record the deliveries it interrupts
  private readonly loop = new WorkerLoop({
    name: 'stripe events',
    pass: () => this.deliverDue(),
    sweepMs: SWEEP_MS,
    minSleepMs: 50,
    retryPauseMs: 1_000,
    logger: this.logger,
  });

  constructor(
    private readonly stripe: StripeStore,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /** One signed POST of the event's exact bytes; the endpoint's status, or the failure in words. */
  async deliver(body: string): Promise<{ status: number } | { error: string }> {
    try {
      const response = await fetch(this.config.stripeWebhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(body, this.config.SANDBOX_STRIPE_WEBHOOK_SECRET), 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
        body,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await response.arrayBuffer();
      return { status: response.status };
    } catch (err) {
      return { error: describeFailure(err) };
    }
  }

  /** Delivers one claim of due events; says when to look again. */
  private async deliverDue(): Promise<PassOutcome> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((event) => this.attempt(event)));
    return claimed.length === CLAIM ? 'more' : this.nextDueInMs();
  }

  private async claim(): Promise<ClaimedStripeEvent[]> {
    return this.stripe.claimDue(CLAIM, LEASE_MS);
  }

  private async attempt(event: ClaimedStripeEvent): Promise<void> {
    const outcome = await this.deliver(event.body);
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
      await this.stripe.delivered(event.id, outcome.status);
      return;
    }
    const failure = 'status' in outcome ? `the endpoint answered ${outcome.status}` : outcome.error;
    const delayMs = this.stopping.signal.aborted ? 0 : retryDelayMs(this.config.notifyRetryDelaysMs, event.attempts);
    const givenUp = Date.now() + delayMs >= event.give_up_at.getTime();
    if (givenUp) this.logger.warn(`gave up on Stripe event ${event.id} after ${event.attempts} attempts: ${failure}`);
    await this.stripe.failed(event.id, { delayMs, givenUp, status: 'status' in outcome ? outcome.status : null, error: failure });
  }

  private async nextDueInMs(): Promise<number | null> {
    return this.stripe.nextDueInMs();
  }
}
