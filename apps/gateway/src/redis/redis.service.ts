import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { GatewayConfig } from '../config/gateway.config';

export type BusHandler = (message: string) => void;

/**
 * The gateway's Redis: one command connection (quotas, rate limits, idempotency) and, opened on first use, one
 * subscriber connection for cross-instance invalidations (a connection in subscribe mode can run nothing else).
 * Commands fail fast instead of queueing while Redis is away, so a Redis outage costs milliseconds, not hung requests.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;
  /** Starts every key and channel of the gateway (`REDIS_KEY_PREFIX`), so it shares a Redis server safely. */
  readonly prefix: string;
  private subscriber?: Redis;
  private readonly handlers = new Map<string, BusHandler[]>();

  constructor(config: GatewayConfig) {
    this.prefix = config.REDIS_KEY_PREFIX;
    this.client = new Redis(config.REDIS_URL, this.options());
    this.client.on('error', (err) => this.logger.warn(`redis: ${err.message}`));
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** Publishes on a gateway channel; delivery is best effort (Redis pub/sub is at-most-once). */
  async publish(channel: string, message: string): Promise<void> {
    await this.client.publish(this.prefix + channel, message);
  }

  /** Calls `handler` with every message published on `channel` by any gateway instance (this one included). */
  async subscribe(channel: string, handler: BusHandler): Promise<void> {
    const full = this.prefix + channel;
    if (!this.subscriber) {
      this.subscriber = this.client.duplicate();
      this.subscriber.on('error', (err) => this.logger.warn(`redis subscriber: ${err.message}`));
      this.subscriber.on('message', (ch: string, message: string) => {
        for (const h of this.handlers.get(ch) ?? []) h(message);
      });
    }
    this.handlers.set(full, [...(this.handlers.get(full) ?? []), handler]);
    await this.subscriber.subscribe(full);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.client, this.subscriber].filter((c): c is Redis => !!c).map((c) => c.quit().catch(() => c.disconnect())));
  }

  private options(): RedisOptions {
    return {
      // A command waits at most this long, and is not retried across reconnects.
      commandTimeout: 1000,
      maxRetriesPerRequest: 1,
      // Reconnect forever with a capped back-off; the subscriber re-subscribes by itself.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    };
  }
}
