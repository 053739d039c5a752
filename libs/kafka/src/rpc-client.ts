import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  Headers,
  RPC_REPLY_TOPIC,
  RpcTopics,
  rpcOwner,
  type RpcPattern,
  type RpcRequest,
  type RpcResponse,
  type RpcResult,
} from '@parley/contracts';
import type { Consumer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { RpcProblemError, RpcTimeoutError } from './errors';
import { EventPublisher } from './event-publisher';
import { KafkaConnection } from './kafka-connection';

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface RequestOptions {
  requestId?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Kafka request-reply: publishes the request on the owning service's request topic and waits for the reply.
 *
 * Replies go to one shared topic that every caller process reads with a consumer group of its own, starting at the
 * topic's end as it was read before the group joined (ready once it runs), so no reply is missed and any number of
 * gateway instances work without partition bookkeeping. Replies meant for another process are ignored by correlation id.
 */
@Injectable()
export class RpcClient implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('RpcClient');
  private readonly waiting = new Map<string, Waiting>();
  private consumer?: Consumer;
  private groupId?: string;
  private starting?: Promise<void>;

  constructor(
    private readonly connection: KafkaConnection,
    private readonly publisher: EventPublisher,
  ) {}

  onModuleInit(): void {
    if (this.connection.options.rpcClient) {
      // Started eagerly so the first request does not pay for the group join; failures are retried per request.
      this.start().catch((err: unknown) => this.logger.warn(`reply consumer not started yet: ${String(err)}`));
    }
  }

  /** Resolves once the reply consumer reads replies (what a first request would otherwise wait for). */
  ready(): Promise<void> {
    return this.start();
  }

  get isReady(): boolean {
    return this.consumer !== undefined && this.connection.producerConnected;
  }

  async request<P extends RpcPattern>(pattern: P, payload: RpcRequest<P>, options: RequestOptions = {}): Promise<RpcResponse<P>> {
    const timeoutMs = options.timeoutMs ?? this.connection.options.rpcTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    await withDeadline(this.start(), deadline, pattern, timeoutMs);
    const correlationId = randomUUID();
    const reply = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(correlationId);
        reject(new RpcTimeoutError(pattern, timeoutMs));
      }, Math.max(1, deadline - Date.now()));
      this.waiting.set(correlationId, { resolve, reject, timer });
    });
    // The reply (a problem answer, or the time-out) can settle while the publish below is still awaiting its ack; a
    // rejection with no handler yet would be an unhandled rejection and take the whole process down. It is awaited below.
    reply.catch(() => undefined);
    try {
      await this.publisher.publish(
        [
          {
            topic: RpcTopics[rpcOwner(pattern)],
            key: correlationId,
            value: payload,
            headers: {
              [Headers.RpcPattern]: pattern,
              [Headers.CorrelationId]: correlationId,
              [Headers.ReplyTopic]: RPC_REPLY_TOPIC,
              [Headers.RequestId]: options.requestId,
              deadline: String(deadline),
            },
          },
        ],
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
    } catch (err) {
      const w = this.waiting.get(correlationId);
      if (w) {
        clearTimeout(w.timer);
        this.waiting.delete(correlationId);
      }
      throw err;
    }
    return (await reply) as RpcResponse<P>;
  }

  private start(): Promise<void> {
    this.starting ??= this.startConsumer().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private async startConsumer(): Promise<void> {
    await this.connection.ensureTopics();
    await this.publisher.connect();
    const { consumer, groupId } = this.connection.ownGroupConsumer(`${this.connection.options.clientId}-replies`);
    await consumer.connect();
    await this.connection.runFromTheEnd(consumer, [RPC_REPLY_TOPIC], async (message) => this.onReply(message.headers?.[Headers.CorrelationId], message.value));
    this.consumer = consumer;
    this.groupId = groupId;
  }

  private onReply(header: unknown, value: Buffer | null): void {
    const correlationId = Buffer.isBuffer(header) ? header.toString('utf8') : typeof header === 'string' ? header : undefined;
    if (!correlationId) return;
    const waiting = this.waiting.get(correlationId);
    if (!waiting) return; // another caller's reply, or one that came after its time-out
    this.waiting.delete(correlationId);
    clearTimeout(waiting.timer);
    try {
      const result = JSON.parse(value?.toString('utf8') ?? '') as RpcResult<unknown>;
      if (result.ok) waiting.resolve(result.data);
      else waiting.reject(new RpcProblemError(result.problem));
    } catch (err) {
      waiting.reject(err);
    }
  }

  /** Before the connection's own shutdown: deleting the reply group needs its admin client still connected. */
  async beforeApplicationShutdown(): Promise<void> {
    for (const [, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new Error('shutting down'));
    }
    this.waiting.clear();
    if (this.consumer && this.groupId) await this.connection.leaveOwnGroup(this.consumer, this.groupId);
  }
}

async function withDeadline<T>(work: Promise<T>, deadline: number, pattern: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RpcTimeoutError(pattern, timeoutMs)), Math.max(1, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
