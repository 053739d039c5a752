import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PgListener, Wakeup, sleepUntilDue } from '@parley/service-kit';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { SendDispatcher } from './send-dispatcher.service';
import { SEND_QUEUE_CHANNEL, SendQueueStore, type QueuedSend } from './send-queue.store';

/**
 * Conversations one instance works at once (each waits for its slot or its provider). Their database writes share
 * group-committed statements (SendQueueStore.beginAttempt, SendAcceptance), so this bounds the provider calls in flight
 * rather than database connections. As many as the provider connections kept alive (http-post.ts): a call never
 * waits for a socket, so its time-out measures the provider alone.
 */
const MAX_IN_FLIGHT = 128;
/**
 * Accepted sends whose recording and announcement still run (detached from the conversation, which goes on with its
 * next provider call). Bounded so a slow database or broker slows claiming rather than piling up work in memory.
 */
const MAX_SETTLING = 512;
/** A pass waiting on full slots resumes once this many are free, so claims stay batches rather than single rows. */
const RESUME_AT_FREE = MAX_IN_FLIGHT / 4;
/** Shortest pause between passes that found nothing due (a pass that found work is followed at once). */
const IDLE_MS = 25;
/**
 * Longest pause: the safety sweep. Writes wake the worker (NOTIFY) and it sleeps until the next row is due, so this
 * only finds what no wake-up announced (a notification lost while the LISTEN connection was down).
 */
const SWEEP_MS = 30_000;
/** After failed passes (the database is down, say) the pause doubles up to this, so an outage logs a few lines a minute. */
const FAILING_MAX_MS = 5_000;

/**
 * Works the send queue in its own loop, apart from the Kafka consumers: a slow or failing provider delays only its
 * own messages. Claiming never waits for sends, so rows come up on time for their slots; messages to one customer
 * claimed together go out in queue order, other conversations alongside. An idle worker sleeps until the next row is
 * due, woken early by the queue's NOTIFY (any instance's write) or by freed slots.
 */
@Injectable()
export class SendQueueWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SendQueueWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  private readonly settling = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  /** Ends the loop's pause early: a stop, a change to the queue, or slots freed while it waited on full ones. */
  private readonly wakeup = new Wakeup();
  private readonly listener: PgListener;
  private waitingForRoom = false;

  constructor(
    private readonly queue: SendQueueStore,
    private readonly dispatcher: SendDispatcher,
    config: MessagingServiceConfig,
  ) {
    this.listener = new PgListener({
      url: config.DATABASE_URL,
      channels: [SEND_QUEUE_CHANNEL],
      applicationName: 'messaging-send-queue',
      onNotify: () => this.wakeup.wake(),
      // (Re)connected: anything notified meanwhile went unheard; look once.
      onListening: () => this.wakeup.wake(),
      warn: (message) => this.logger.warn(`send queue: ${message}`),
    });
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.listener.start();
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wakeup.wake();
    await this.listener.stop();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await Promise.allSettled([...this.settling]);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let claimed = 0;
      let pauseMs = SWEEP_MS; // full slots: freed() wakes the loop
      const room = this.room();
      if (room > 0) {
        try {
          const items = await this.queue.claim(room);
          claimed = items.length;
          this.start(items);
          if (claimed === 0) pauseMs = sleepUntilDue(await this.queue.nextDueInMs(), IDLE_MS, SWEEP_MS);
          if (failures > 0) this.logger.log(`send queue passes work again after ${failures} failed`);
          failures = 0;
        } catch (err) {
          // Claims lapse and their rows come back; keep the loop alive, backing off while the failure lasts.
          failures += 1;
          if (failures === 1 || failures % 10 === 0) this.logger.error(`send queue pass failed (${failures} in a row): ${String(err)}`);
        }
      }
      if (claimed === 0 && this.running) {
        this.waitingForRoom = room <= 0;
        await this.wakeup.sleep(failures === 0 ? pauseMs : Math.min(FAILING_MAX_MS, IDLE_MS * 2 ** failures));
        this.waitingForRoom = false;
      }
    }
  }

  /** Rows a claim may take now: free conversation slots, unless too many accepted sends are still being recorded. */
  private room(): number {
    return Math.min(MAX_IN_FLIGHT - this.inFlight.size, MAX_SETTLING - this.settling.size);
  }

  /** A slot freed: a loop waiting on full slots claims again once enough are free (no need to wait out its pause). */
  private freed(): void {
    if (this.waitingForRoom && this.room() >= RESUME_AT_FREE) this.wakeup.wake();
  }

  private start(items: QueuedSend[]): void {
    const conversations = new Map<string, QueuedSend[]>();
    for (const item of items) {
      const key = `${item.tenantId}:${item.recipient}`;
      conversations.set(key, [...(conversations.get(key) ?? []), item]);
    }
    for (const group of conversations.values()) {
      const task = this.deliverInOrder(group).finally(() => {
        this.inFlight.delete(task);
        this.freed();
      });
      this.inFlight.add(task);
    }
  }

  /** Provider calls of one conversation one after the other; each acceptance is recorded alongside the next call. */
  private async deliverInOrder(group: QueuedSend[]): Promise<void> {
    for (const item of group) {
      try {
        const { settled } = await this.dispatcher.deliver(item);
        this.track(item, settled);
      } catch (err) {
        this.leftClaimed(item, err);
      }
    }
  }

  private track(item: QueuedSend, settled: Promise<void>): void {
    const task: Promise<void> = settled
      .catch((err: unknown) => this.leftClaimed(item, err))
      .finally(() => {
        this.settling.delete(task);
        this.freed();
      });
    this.settling.add(task);
  }

  private leftClaimed(item: QueuedSend, err: unknown): void {
    // Left claimed: it comes back when the claim lapses (an attempt on record then waits for its outcome).
    this.logger.warn(`send of ${item.messageId} failed unexpectedly, retried after its claim lapses: ${String(err)}`);
  }
}
