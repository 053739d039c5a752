import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Headers, envelopeVersion, newId, routingHeaders, type EnvelopeVersion, type EventEnvelope } from '@parley/contracts';
import { CompressionTypes, Partitioners, type Producer, type TopicMessages } from 'kafkajs';
import { PublishTimeoutError } from './errors';
import { KafkaConnection } from './kafka-connection';
import { countProducerRequests } from './kafka-metrics';

export interface OutgoingMessage {
  /** Logical topic name. */
  topic: string;
  /** Ordering key: messages with one key stay in order on one partition. */
  key: string;
  value: unknown;
  headers?: Record<string, string | undefined>;
}

export interface PublishOptions {
  /** Reject with PublishTimeoutError when the broker has not acknowledged within this time. */
  timeoutMs?: number;
}

interface Pending {
  messages: OutgoingMessage[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_CONCURRENT_FLUSHES = 4;

/**
 * Publishes to Kafka with `acks: all`, batching what arrives in the same tick into one produce request per flush,
 * so a burst of sends costs a few broker round trips instead of one each. A publish resolves only once the broker
 * has acknowledged its messages.
 */
@Injectable()
export class EventPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger('EventPublisher');
  private readonly producer: Producer;
  private connecting?: Promise<void>;
  private queue: Pending[] = [];
  private flushScheduled = false;
  private inFlight = 0;
  private closed = false;

  constructor(private readonly connection: KafkaConnection) {
    this.producer = connection.kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      // Retries on a broker outage are bounded by the caller's timeout, not here.
      retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 10 },
    });
    countProducerRequests(this.producer);
    this.producer.on(this.producer.events.DISCONNECT, () => {
      connection.producerConnected = false;
    });
  }

  /** Builds an envelope for `data` (new id unless given). */
  static envelope<TType extends string, TData>(
    type: TType,
    tenantId: string | null,
    data: TData,
    id: string = newId('evt'),
  ): EventEnvelope<TType, TData, EnvelopeVersion<TType>> {
    return { id, type, version: envelopeVersion(type), tenant_id: tenantId, occurred_at: new Date().toISOString(), data };
  }

  /** Publishes an envelope to the topic named by its type. */
  publishEvent(envelope: EventEnvelope, key: string, requestId?: string, options?: PublishOptions): Promise<void> {
    return this.publish(
      [{ topic: envelope.type, key, value: envelope, headers: { [Headers.RequestId]: requestId, [Headers.EventType]: envelope.type } }],
      options,
    );
  }

  publish(messages: OutgoingMessage[], options: PublishOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the publisher is closed'));
    const acked = new Promise<void>((resolve, reject) => {
      this.queue.push({ messages, resolve, reject });
      this.scheduleFlush();
    });
    if (!options.timeoutMs) return acked;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PublishTimeoutError(options.timeoutMs!)), options.timeoutMs);
    });
    return Promise.race([acked, timeout]).finally(() => clearTimeout(timer));
  }

  /** Connects the producer (retried in the background by publishes; exposed for start-up and readiness). */
  connect(): Promise<void> {
    this.connecting ??= (async () => {
      await this.connection.ensureTopics();
      await this.producer.connect();
      this.connection.producerConnected = true;
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.inFlight >= MAX_CONCURRENT_FLUSHES) return;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      void this.flush();
    };
    const lingerMs = this.connection.options.publishLingerMs ?? 0;
    if (lingerMs > 0) setTimeout(run, lingerMs);
    else setImmediate(run);
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    this.inFlight++;
    try {
      await this.connect();
      await this.producer.sendBatch({ acks: -1, timeout: 10000, compression: CompressionTypes.None, topicMessages: this.group(batch) });
      for (const p of batch) p.resolve();
    } catch (err) {
      this.logger.warn(`publish of ${batch.length} request(s) failed: ${String(err)}`);
      for (const p of batch) p.reject(err);
    } finally {
      this.inFlight--;
      if (this.queue.length > 0) this.scheduleFlush();
    }
  }

  private group(batch: Pending[]): TopicMessages[] {
    const byTopic = new Map<string, TopicMessages>();
    for (const { messages } of batch) {
      for (const m of messages) {
        const topic = this.connection.topic(m.topic);
        let entry = byTopic.get(topic);
        if (!entry) byTopic.set(topic, (entry = { topic, messages: [] }));
        // An envelope's routing facts, unless the caller set them: consumers may skip it unread (SkipUnreadWhen).
        const headers: Record<string, string> = isEnvelope(m.value) ? routingHeaders(m.value) : {};
        for (const [k, v] of Object.entries(m.headers ?? {})) if (v !== undefined) headers[k] = v;
        entry.messages.push({ key: m.key, value: JSON.stringify(m.value), headers });
      }
    }
    return [...byTopic.values()];
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + 5000;
    while ((this.inFlight > 0 || this.queue.length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await this.producer.disconnect().catch(() => undefined);
  }
}

function isEnvelope(value: unknown): value is EventEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && 'data' in value;
}
