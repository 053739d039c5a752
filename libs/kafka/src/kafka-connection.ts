import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TOPIC_SPECS, type TopicSpec } from '@parley/contracts';
import { ConfigResourceTypes, Kafka, KafkaJSNonRetriableError, logLevel, type Admin, type Consumer, type ConsumerConfig, type KafkaMessage, type LogEntry } from 'kafkajs';
import { isStoppedByUs, markStoppedByUs, untilRejoined } from './consumer-rejoin';
import { retryRetriable } from './errors';
import { kafkaLogLevel } from './kafka-log';
import { countConsumerWork } from './kafka-metrics';
import './kafkajs-patches';
import { KAFKA_OPTIONS, type KafkaOptions } from './kafka.options';

export type ConsumerState = 'idle' | 'starting' | 'running' | 'crashed';

/** How long a raised topic limit may take to apply on the broker (untilConfigured); it takes milliseconds. */
const CONFIG_APPLIED_TIMEOUT_MS = 30_000;

/**
 * The process's one kafkajs client: names (namespace applied), topic creation, and the state that readiness reports.
 */
@Injectable()
export class KafkaConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Kafka');
  readonly kafka: Kafka;
  private admin?: Admin;
  private closed = false;
  private topicsReady?: Promise<void>;
  /**
   * Per event topic: every record produced before this moment (epoch ms) is known handled by this service's group. It
   * only moves forward, as committed offsets do (a group reset by hand aside).
   */
  private readonly handledThrough = new Map<string, number>();
  /** Per event topic: the look at the group's commits under way (handledEventsBefore). */
  private readonly lookingAt = new Map<string, Promise<void>>();
  consumerState: ConsumerState = 'idle';
  producerConnected = false;

  constructor(@Inject(KAFKA_OPTIONS) readonly options: KafkaOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10000,
      retry: { initialRetryTime: 200, maxRetryTime: 5000, retries: 8 },
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.log(entry),
    });
  }

  /** The broker-side name of a logical topic. */
  topic(name: string): string {
    return `${this.options.namespace ?? ''}${name}`;
  }

  /** The logical name of a broker-side topic. */
  logicalTopic(name: string): string {
    const ns = this.options.namespace ?? '';
    return ns && name.startsWith(ns) ? name.slice(ns.length) : name;
  }

  group(name: string): string {
    return `${this.options.namespace ?? ''}${name}`;
  }

  /** A consumer group of this service: its base name (`groupId`, else `clientId`) with `suffix`. */
  serviceGroup(suffix: string): string {
    return this.group(`${this.options.groupId ?? this.options.clientId}${suffix}`);
  }

  /** The group of this service's consumer of the event topic `topic` (KafkaTransport runs one a topic). */
  eventGroup(topic: string): string {
    return this.serviceGroup(`.${topic}`);
  }

  /**
   * Whether this service's consumers of the event topic `topic` have handled, and committed, every event produced to
   * it before `at` (the producer's clock). What "nothing said so by then" waits for: a consumer behind its topic has
   * not read yet what was said in time. The answer is remembered; when the broker must be asked, it is asked about
   * `lookAt` (a later moment lets one answer cover the questions after this one). Questions about a topic while the
   * broker is being asked share that look (a backlog wonders together); one the look does not cover is answered false,
   * to be asked again.
   */
  async handledEventsBefore(topic: string, at: Date, lookAt: Date = at): Promise<boolean> {
    const known = () => at.getTime() <= (this.handledThrough.get(topic) ?? 0);
    if (known()) return true;
    let look = this.lookingAt.get(topic);
    if (!look) {
      look = this.lookAtCommits(topic, Math.max(at.getTime(), lookAt.getTime())).finally(() => this.lookingAt.delete(topic));
      this.lookingAt.set(topic, look);
    }
    await look;
    return known();
  }

  /** Moves `handledThrough` up to `at` when the group has committed past every record produced before it. */
  private async lookAtCommits(topic: string, at: number): Promise<void> {
    const admin = await this.connectedAdmin();
    const physical = this.topic(topic);
    // Records produced after the look starts may still carry an earlier timestamp than a moment yet to come.
    const through = Math.min(at, Date.now());
    const [firstAtOrAfter, bounds, committed] = await Promise.all([
      admin.fetchTopicOffsetsByTimestamp(physical, at),
      admin.fetchTopicOffsets(physical),
      admin.fetchOffsets({ groupId: this.eventGroup(topic), topics: [physical] }),
    ]);
    const low = new Map(bounds.map((p) => [p.partition, Number(p.low)]));
    const next = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    // A partition the group never committed (-1) is read from its beginning (the transport subscribes fromBeginning).
    const handled = firstAtOrAfter.every(({ partition, offset }) => Math.max(next.get(partition) ?? -1, low.get(partition) ?? 0) >= Number(offset));
    if (handled) this.handledThrough.set(topic, Math.max(this.handledThrough.get(topic) ?? 0, through));
  }

  /** Creates every platform topic that does not exist yet (idempotent; safe from many processes at once). */
  ensureTopics(specs: readonly TopicSpec[] = TOPIC_SPECS): Promise<void> {
    this.topicsReady ??= retryRetriable(() => this.createTopics(specs)).catch((err: unknown) => {
      this.topicsReady = undefined;
      throw err;
    });
    return this.topicsReady;
  }

  private async createTopics(specs: readonly TopicSpec[]): Promise<void> {
    const admin = await this.connectedAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(this.topic(s.name)));
    await this.raiseMessageLimits(admin, specs.filter((s) => existing.has(this.topic(s.name))));
    if (missing.length === 0) {
      // Refresh this client's metadata so its first calls find the partition leaders.
      await admin.fetchTopicMetadata({ topics: specs.map((s) => this.topic(s.name)) });
      await this.untilServed(admin, specs);
      return;
    }
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: this.topic(s.name),
          numPartitions: s.partitions,
          replicationFactor: -1,
          configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
      this.logger.log(`created ${missing.length} topic(s): ${missing.map((s) => s.name).join(', ')}`);
    } catch (err) {
      // Another process may have created them between our list and create: that is success.
      const after = new Set(await admin.listTopics());
      if (missing.some((s) => !after.has(this.topic(s.name)))) throw err;
    }
    await this.untilServed(admin, specs);
  }

  /**
   * A topic created before its spec asked for larger messages (`max.message.bytes`, e.g. `rpc.agent-service` once it
   * carried document uploads) gets the spec's configuration: topic creation alone never changes an existing topic.
   * Only ever raises the limit; AlterConfigs replaces a topic's whole dynamic configuration, so the spec's full config
   * is written.
   */
  private async raiseMessageLimits(admin: Admin, existing: readonly TopicSpec[]): Promise<void> {
    const limited = existing.filter((s) => s.config?.['max.message.bytes'] !== undefined);
    if (limited.length === 0) return;
    const low = await this.belowSpecLimit(admin, limited);
    if (low.length === 0) return;
    await admin.alterConfigs({
      validateOnly: false,
      resources: low.map((s) => ({
        type: ConfigResourceTypes.TOPIC,
        name: this.topic(s.name),
        configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
      })),
    });
    await this.untilConfigured(admin, low);
    this.logger.log(`raised max.message.bytes of ${low.map((s) => s.name).join(', ')}`);
  }

  /** The specs whose topic the broker describes with a `max.message.bytes` below the spec's. */
  private async belowSpecLimit(admin: Admin, specs: readonly TopicSpec[]): Promise<TopicSpec[]> {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: specs.map((s) => ({ type: ConfigResourceTypes.TOPIC, name: this.topic(s.name), configNames: ['max.message.bytes'] })),
    });
    const limits = new Map(described.resources.map((r) => [r.resourceName, Number(r.configEntries.find((e) => e.configName === 'max.message.bytes')?.configValue)]));
    return specs.filter((s) => (limits.get(this.topic(s.name)) ?? 0) < Number(s.config?.['max.message.bytes']));
  }

  /**
   * A KRaft broker answers AlterConfigs once the change is in the metadata log and applies it a moment later: until
   * then it still refuses the larger messages. Waits until it describes the topics with the spec's limit.
   */
  private async untilConfigured(admin: Admin, specs: readonly TopicSpec[]): Promise<void> {
    const deadline = Date.now() + CONFIG_APPLIED_TIMEOUT_MS;
    for (;;) {
      const pending = await this.belowSpecLimit(admin, specs);
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`the broker did not apply max.message.bytes of ${pending.map((s) => s.name).join(', ')} within ${CONFIG_APPLIED_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Resolves once the broker answers offset requests for every partition of the topics. A KRaft broker announces a
   * new partition's leader in its metadata a moment before it serves it; consumers started in that window get "not the
   * leader for that topic-partition" on ListOffsets and, on a busy machine, can take many seconds to recover.
   */
  private async untilServed(admin: Admin, specs: readonly TopicSpec[]): Promise<void> {
    for (const spec of specs) await retryRetriable(() => admin.fetchTopicOffsets(this.topic(spec.name)));
  }

  /**
   * A consumer of this client that stays stopped once disconnect() was called. kafkajs restarts a crashed consumer on
   * a timer its crash handler may set after our disconnect (a crash while the broker is down, say, during shutdown),
   * and the consumer then runs, or retries connecting, for the life of the process.
   */
  consumer(config: ConsumerConfig): Consumer {
    const consumer: Consumer = this.kafka.consumer({
      ...config,
      // kafkajs's own default for a consumer is 5 retries
      retry: { retries: 5, ...config.retry, restartOnFailure: async () => !isStoppedByUs(consumer) && !this.closed },
    });
    countConsumerWork(consumer, (topic) => this.logicalTopic(topic));
    const disconnect = consumer.disconnect.bind(consumer);
    consumer.disconnect = () => {
      markStoppedByUs(consumer);
      return disconnect();
    };
    return consumer;
  }

  /**
   * A consumer in a group of its own (`<name>-<uuid>`), for `runFromTheEnd`: every instance of a process reads every
   * record (RPC replies, cache invalidations, live streams). `leaveOwnGroup` deletes the group after it.
   */
  ownGroupConsumer(name: string): { consumer: Consumer; groupId: string } {
    const groupId = this.group(`${name}-${randomUUID()}`);
    const consumer = this.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      maxWaitTimeInMs: this.options.fetchMaxWaitMs,
    });
    return { consumer, groupId };
  }

  /** Stops a consumer of `ownGroupConsumer` and deletes its group, which nothing will read again. */
  async leaveOwnGroup(consumer: Consumer, groupId: string): Promise<void> {
    await consumer.disconnect().catch(() => undefined);
    const admin = await this.connectedAdmin().catch(() => undefined);
    if (admin) await admin.deleteGroups([groupId]).catch(() => undefined);
  }

  /**
   * Runs the connected `consumer` (of a group of its own, committing nothing) over `topics` from their ends as they are
   * when this is called: resolves once it runs, and every record produced from then on reaches `eachMessage`. The ends are read
   * here and the consumer pinned to them, so readiness does not wait for a first fetch to end and the consumer can
   * long-poll like any other (`fetchMaxWaitMs`). Such consumers used to poll every 250 ms so that their first, empty
   * fetch came soon: four fetches a second each, idle (issue 33).
   */
  async runFromTheEnd(consumer: Consumer, topics: readonly string[], eachMessage: (message: KafkaMessage) => Promise<void>): Promise<void> {
    const physical = topics.map((t) => this.topic(t));
    const admin = await this.connectedAdmin();
    const ends = await Promise.all(physical.map(async (topic) => ({ topic, partitions: await retryRetriable(() => admin.fetchTopicOffsets(topic)) })));
    await retryRetriable(() => consumer.subscribe({ topics: physical, fromBeginning: false }));
    // Listening before it runs: a join that fails at once (the coordinator still loading) crashes the consumer before
    // it can be pinned, and kafkajs restarts it; it is pinned when it has joined again.
    const rejoined = untilRejoined(consumer);
    await consumer.run({ autoCommit: false, partitionsConsumedConcurrently: 4, eachMessage: ({ message }) => eachMessage(message) });
    // A fetch already under way from the end kafkajs resolved (later than ours) is dropped by kafkajs and redone from here.
    const pin = () => {
      for (const { topic, partitions } of ends) for (const { partition, high } of partitions) consumer.seek({ topic, partition, offset: high });
    };
    try {
      pin();
    } catch (err) {
      if (!(err instanceof KafkaJSNonRetriableError) || !/not initialized/.test(err.message)) throw err;
      await rejoined.promise;
      pin();
    } finally {
      rejoined.cancel();
    }
  }

  /** The shared admin client; refused once shut down (kafkajs would silently reconnect it, and keep the process alive). */
  async connectedAdmin(): Promise<Admin> {
    if (this.closed) throw new Error('the Kafka connection is closed');
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      if (this.closed) {
        await admin.disconnect().catch(() => undefined);
        throw new Error('the Kafka connection is closed');
      }
      this.admin = admin;
    }
    return this.admin;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.admin?.disconnect().catch(() => undefined);
  }

  private log(entry: LogEntry): void {
    const level = kafkaLogLevel(entry);
    if (!level) return;
    const { message, ...extra } = entry.log;
    const text = `${message}${extra.error ? `: ${String(extra.error)}` : ''}`;
    if (level === 'error') this.logger.error(text);
    else this.logger.warn(text);
  }
}
