import { Injectable, Logger } from '@nestjs/common';
import { BackgroundWorker, PgListener, WorkerLoop } from '@parley/service-kit';
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
/** After failed passes (the database is down, say) the pause doubles up to this. */
const FAILING_MAX_MS = 5_000;

/**
 * Works the send queue in its own loop, apart from the Kafka consumers: a slow or failing provider delays only its
 * own messages. Claiming never waits for sends, so rows come up on time for their slots; messages to one customer
 * claimed together go out in queue order, other conversations alongside. An idle worker sleeps until the next row is
 * due, woken early by the queue's NOTIFY (any instance's write) or by freed slots.
 */
@Injectable()
export class SendQueueWorker extends BackgroundWorker {
  private readonly logger = new Logger(SendQueueWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  private readonly settling = new Set<Promise<void>>();
  private readonly listener: PgListener;
  /** The last pass found every slot taken: freed slots wake it (no need to wait out the sweep). */
  private waitingForRoom = false;
  // Claiming never waits for the sends it starts: a pass claims what there is room for, and the next follows at once
  // while it filled the room; otherwise it sleeps until the next row is due. Failed passes (the database down) pause from
  // 50 ms doubling to FAILING_MAX_MS; their claims lapse and the rows come back.
  protected readonly loop = new WorkerLoop({
    name: 'send queue',
    pass: async () => {
      const room = this.room();
      this.waitingForRoom = room <= 0;
      if (this.waitingForRoom) return null;
      const { items, nextDueInMs } = await this.queue.claim(room);
      this.start(items);
      // Fewer than there was room for: nothing else was due (another instance holds what it skipped), so no empty
      // claim to learn it; the next row's time (read by the claim itself) decides the sleep, and a write meanwhile
      // wakes the loop.
      return items.length >= room ? 'more' : nextDueInMs;
    },
    sweepMs: SWEEP_MS,
    minSleepMs: IDLE_MS,
    retryPauseMs: IDLE_MS * 2,
    maxRetryPauseMs: FAILING_MAX_MS,
    logger: this.logger,
  });

  constructor(
    private readonly queue: SendQueueStore,
    private readonly dispatcher: SendDispatcher,
    config: MessagingServiceConfig,
  ) {
    super();
    this.listener = new PgListener({
      url: config.DATABASE_URL,
      channels: [SEND_QUEUE_CHANNEL],
      applicationName: 'messaging-send-queue',
      onNotify: () => this.wake(),
      // (Re)connected: anything notified meanwhile went unheard; look once.
      onListening: () => this.wake(),
      warn: (message) => this.logger.warn(`send queue: ${message}`),
    });
  }

  override onApplicationBootstrap(): void {
    this.listener.start();
    super.onApplicationBootstrap();
  }

  override async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
    await super.onApplicationShutdown();
    await Promise.allSettled([...this.inFlight]);
    await Promise.allSettled([...this.settling]);
  }

  /** Rows a claim may take now: free conversation slots, unless too many accepted sends are still being recorded. */
  private room(): number {
    return Math.min(MAX_IN_FLIGHT - this.inFlight.size, MAX_SETTLING - this.settling.size);
  }

  /** A slot freed: a loop waiting on full slots claims again once enough are free (no need to wait out its pause). */
  private freed(): void {
    if (this.waitingForRoom && this.room() >= RESUME_AT_FREE) {
      this.waitingForRoom = false;
      this.wake();
    }
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
