import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Wakeup, sleepUntilDue } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { describeFailure } from '../notifications/gateway-notifier.service';
import { retryDelayMs } from '../notifications/retry-schedule';
import { stripeSignature } from './stripe-signing';

/** Time the endpoint gets to answer one delivery. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** A claim outlives one delivery, so a live sandbox's attempt is never taken over; a dead one's is, after this. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const CLAIM = 16;
const MIN_SLEEP_MS = 50;
/** Longest idle sleep (paying wakes the dispatcher; this catches rows another process wrote). */
const SWEEP_MS = 30_000;

interface EventRow {
  id: string;
  body: string;
  attempts: number;
  give_up_at: Date;
}

/**
 * Delivers Stripe events to the webhook endpoint as Stripe does: signed, at least once, retrying anything but a 2xx
 * with growing pauses (SANDBOX_NOTIFY_RETRY_MS) until the event's horizon (SANDBOX_STRIPE_GIVE_UP_MS). Events are rows,
 * so a restart loses none.
 */
@Injectable()
export class StripeEventDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StripeEventDispatcher.name);
  private readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: WhatsappSandboxConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.wakeup.wake();
    await this.loop;
  }

  wake(): void {
    this.wakeup.wake();
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

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        const claimed = await this.claim();
        await Promise.all(claimed.map((event) => this.attempt(event)));
        if (claimed.length === CLAIM) continue;
        await this.wakeup.sleep(sleepUntilDue(await this.nextDueInMs(), MIN_SLEEP_MS, SWEEP_MS));
      } catch (err) {
        this.logger.warn(`stripe events: ${String(err)}`);
        await this.wakeup.sleep(1_000);
      }
    }
  }

  private async claim(): Promise<EventRow[]> {
    const [rows] = (await this.db.query(
      `UPDATE stripe_events SET due_at = now() + $2 * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (SELECT id FROM stripe_events WHERE due_at <= now() ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, body, attempts, give_up_at`,
      [CLAIM, LEASE_MS],
    )) as [EventRow[], number];
    return rows;
  }

  private async attempt(event: EventRow): Promise<void> {
    const outcome = await this.deliver(event.body);
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
      await this.db.query(`UPDATE stripe_events SET due_at = NULL, delivered_at = now(), last_status = $2, last_error = NULL WHERE id = $1`, [event.id, outcome.status]);
      return;
    }
    const failure = 'status' in outcome ? `the endpoint answered ${outcome.status}` : outcome.error;
    const delayMs = this.stopping.signal.aborted ? 0 : retryDelayMs(this.config.notifyRetryDelaysMs, event.attempts);
    const givenUp = Date.now() + delayMs >= event.give_up_at.getTime();
    if (givenUp) this.logger.warn(`gave up on Stripe event ${event.id} after ${event.attempts} attempts: ${failure}`);
    await this.db.query(
      `UPDATE stripe_events SET due_at = CASE WHEN $3 THEN NULL ELSE now() + $2 * interval '1 millisecond' END, last_status = $4, last_error = $5 WHERE id = $1`,
      [event.id, delayMs, givenUp, 'status' in outcome ? outcome.status : null, failure],
    );
  }

  private async nextDueInMs(): Promise<number | null> {
    const [row] = (await this.db.query(`SELECT (EXTRACT(EPOCH FROM min(due_at) - now()) * 1000)::float8 AS ms FROM stripe_events WHERE due_at IS NOT NULL`)) as {
      ms: number | null;
    }[];
    return row.ms;
  }
}
