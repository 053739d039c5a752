import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { requestScope } from '@parley/service-kit';
import { SendDispatcher } from './send-dispatcher.service';
import { SendQueue, type QueuedSend } from './send-queue';

/**
 * Conversations one instance works at once (each waits for its slot or its provider). Their database writes share
 * group-committed statements (SendQueue.beginAttempt, SendAcceptance), so this bounds the provider calls in flight
 * rather than database connections; at a provider answer of ~20 ms it allows ~2,400 sends/s per instance.
 */
const MAX_IN_FLIGHT = 48;
/** Pause between passes that found nothing due (a pass that found work is followed at once). */
const IDLE_MS = 25;
/** After failed passes (the database is down, say) the pause doubles up to this, so an outage logs a few lines a minute. */
const FAILING_MAX_MS = 5_000;

/**
 * Works the send queue in its own loop, apart from the Kafka consumers: a slow or failing provider delays only its
 * own messages. Claiming never waits for sends, so rows come up on time for their slots; messages to one customer
 * claimed together go out in queue order, other conversations alongside.
 */
@Injectable()
export class SendQueueWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SendQueueWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private stopTimer: (() => void) | null = null;

  constructor(
    private readonly queue: SendQueue,
    private readonly dispatcher: SendDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.stopTimer?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let claimed = 0;
      const room = MAX_IN_FLIGHT - this.inFlight.size;
      if (room > 0) {
        try {
          const items = await this.queue.claim(room);
          claimed = items.length;
          this.start(items);
          if (failures > 0) this.logger.log(`send queue passes work again after ${failures} failed`);
          failures = 0;
        } catch (err) {
          // Claims lapse and their rows come back; keep the loop alive, backing off while the failure lasts.
          failures += 1;
          if (failures === 1 || failures % 10 === 0) this.logger.error(`send queue pass failed (${failures} in a row): ${String(err)}`);
        }
      }
      if (claimed === 0 && this.running) await this.pause(failures === 0 ? IDLE_MS : Math.min(FAILING_MAX_MS, IDLE_MS * 2 ** failures));
    }
  }

  private start(items: QueuedSend[]): void {
    const conversations = new Map<string, QueuedSend[]>();
    for (const item of items) {
      const key = `${item.tenantId}:${item.recipient}`;
      conversations.set(key, [...(conversations.get(key) ?? []), item]);
    }
    for (const group of conversations.values()) {
      const task = this.deliverInOrder(group).finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
    }
  }

  private async deliverInOrder(group: QueuedSend[]): Promise<void> {
    for (const item of group) {
      try {
        // Log lines of the send carry the request that caused it, like the consumer's.
        await (item.requestId ? requestScope(item.requestId, () => this.dispatcher.deliver(item)) : this.dispatcher.deliver(item));
      } catch (err) {
        // Left claimed: it comes back when the claim lapses.
        this.logger.warn(`send of ${item.messageId} failed unexpectedly, retried after its claim lapses: ${String(err)}`);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.stopTimer = null;
        resolve();
      }, ms);
      this.stopTimer = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
