import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Topics, type ChannelChangedEvent } from '@parley/contracts';
import { KafkaConnection } from '@parley/kafka';
import { ChannelSendersService } from './channel-senders.service';

/** How long to wait before trying again when the listener could not start or stopped. */
const RETRY_MS = 5_000;

type Consumer = ReturnType<KafkaConnection['kafka']['consumer']>;

/**
 * Feeds `channel.changed` into the sender cache. One consumer per instance, in a group of its own (every instance
 * must see every change), from the end of the topic and committing nothing: the cache starts empty, so only changes
 * from now on matter. Until it fetches, and whenever it stops, the cache keeps nothing and every send asks
 * messaging-service (slower, never wrong). Started after boot, so readiness does not wait on a group join.
 */
@Injectable()
export class ChannelChangesListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ChannelChangesListener.name);
  private consumer?: Consumer;
  private groupId?: string;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly kafka: KafkaConnection,
    private readonly senders: ChannelSendersService,
  ) {}

  onApplicationBootstrap(): void {
    void this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.stopConsumer();
  }

  private async start(): Promise<void> {
    if (this.stopped) return;
    const { consumer, groupId } = this.kafka.ownGroupConsumer('gateway-channel-changes');
    this.consumer = consumer;
    this.groupId = groupId;
    // After kafkajs restarts it, the consumer starts at the end it resolves on its first fetch: no change is missed after that.
    consumer.on(consumer.events.FETCH, () => this.senders.trust(true));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      // Changes may be missed until it fetches again (a restarted consumer of an uncommitted group starts at the end).
      this.senders.trust(false);
      if (payload.restart) return;
      this.logger.error(`channel.changed listener stopped: ${String(payload.error)}`);
      void this.restartLater();
    });
    try {
      await this.kafka.ensureTopics();
      await consumer.connect();
      // Shut down while connecting: onModuleDestroy may have missed this consumer.
      if (this.stopped) return void (await consumer.disconnect().catch(() => undefined));
      await this.kafka.runFromTheEnd(consumer, [Topics.ChannelChanged], async (message) => this.apply(message.value));
      // Pinned to the ends read before it ran: no change made from here on is missed.
      this.senders.trust(true);
    } catch (err) {
      if (this.stopped) return;
      this.logger.warn(`channel.changed listener not started (sends check their from with messaging-service meanwhile): ${String(err)}`);
      await this.restartLater();
    }
  }

  private apply(value: Buffer | null): void {
    let tenantId: unknown;
    try {
      tenantId = (JSON.parse(value?.toString('utf8') ?? '') as ChannelChangedEvent).tenant_id;
    } catch {
      tenantId = undefined;
    }
    if (typeof tenantId === 'string') this.senders.forgetTenant(tenantId);
    // An event we cannot attribute could be any tenant's change.
    else this.senders.forgetAll();
  }

  private async restartLater(): Promise<void> {
    this.senders.trust(false);
    await this.stopConsumer();
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.start(), RETRY_MS);
    this.retry.unref();
  }

  private async stopConsumer(): Promise<void> {
    const consumer = this.consumer;
    const groupId = this.groupId;
    this.consumer = undefined;
    if (consumer && groupId) await this.kafka.leaveOwnGroup(consumer, groupId);
  }
}
