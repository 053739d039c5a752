import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import {
  DLQ_SUFFIX,
  Headers,
  RPC_REPLY_TOPIC,
  RpcTopics,
  problem,
  ProblemTypes,
  rpcOwner,
  type EventEnvelope,
  type RpcResult,
} from '@parley/contracts';
import type { Consumer, EachBatchPayload, EachMessagePayload, IHeaders, KafkaMessage } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { lastValueFrom } from 'rxjs';
import { OffsetWatermark, groupByKey, runBounded } from './batch-groups';
import { RpcProblemError, isTransientError, retryRetriable } from './errors';
import { EventPublisher } from './event-publisher';
import { handlerOptionProblems, isBatchHandler, lingerOf, settleOf, skipsUnread } from './handler-options';
import { KafkaConnection } from './kafka-connection';
import { countSkipped } from './kafka-metrics';
import { OffsetCommitter } from './offset-committer';

/** What a handler gets besides the payload (`@Ctx()`). */
export class KafkaContext {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    readonly attempt: number,
  ) {}
}

/**
 * What a batch handler (`@EventPattern(topic, BatchByKey)`) gets besides the envelopes: one context per message, in
 * partition order, and the attempt of the whole group.
 */
export class KafkaBatchContext {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly key: string,
    readonly messages: KafkaContext[],
    readonly attempt: number,
  ) {}

  get requestId(): string {
    return this.messages[0].requestId;
  }
}

/**
 * `@EventPattern(topic, BatchByKey)`: the handler receives, as an array, every message of one key that is waiting in
 * the partition when it is called, instead of one message at a time. Messages that arrive while a key is being
 * handled are handed over together next time, with no timer: a lone message is handled at once. The groups of
 * different keys in one fetched batch are handled concurrently (up to `batchGroupsConcurrently` at once).
 */
export const BatchByKey = { batchByKey: true } as const;

/**
 * `@EventPattern(topic, GatheredBatchByKey)`: a `BatchByKey` handler for work nobody waits on (counters, metering).
 * After handling a partition's batch its consumer lingers `GATHER_MS` before fetching that partition again (unless the
 * partition has more waiting already), so under load the next call carries everything that arrived meanwhile instead
 * of one or two messages: the cost of a handler call (a transaction, its statements) is paid per gathered batch
 * (issue 19). A lone message is still handled at once, an idle consumer long-polls as any other (holding the broker's fetch for more would make it
 * ask every few hundred milliseconds: tried, the idle stack rose from 9.0 % to 11.1 % of a core), and a backlog
 * loses little (each fetch brings up to a megabyte a partition). The price: up to `GATHER_MS` more latency, so not for
 * work that another path may undo meanwhile (crm-service's contacts: a late message remade a deleted contact).
 */
export const GatheredBatchByKey = { batchByKey: true, lingerMs: 500 } as const;

/** How long a gathering consumer waits after a batch before it takes the next one of that partition. */
export const GATHER_MS = GatheredBatchByKey.lingerMs;

/**
 * `@EventPattern(topic, BrieflyGatheredBatchByKey)`: the same lingering, for `BRIEF_GATHER_MS`, for work somebody sees
 * but nobody waits on to the millisecond (a timeline, the inbox's copy of a sent message, a tenant's status callback).
 * Where waking a process is most of what a message costs, as on the 2-core machine of issue 33, this is most of such
 * a consumer's cost under steady load (crm-service's timeline 1.06 -> 0.37 CPU ms a message at 100/s); a lone
 * message still goes at once, and under load each waits at most this much more.
 */
export const BrieflyGatheredBatchByKey = { batchByKey: true, lingerMs: 100 } as const;

/** How long a briefly gathering consumer waits after a batch before it takes the next one of that partition. */
export const BRIEF_GATHER_MS = BrieflyGatheredBatchByKey.lingerMs;

/**
 * `@EventPattern(topic, PacedBatchByKey)`: a `BatchByKey` handler on a customer's path (a send on its way to the
 * provider, a provider's notification): its consumer lingers `PACE_MS` after each batch, so under steady load a call
 * carries what arrived meanwhile, at a price no customer notices; a lone message goes at once.
 */
export const PacedBatchByKey = { batchByKey: true, lingerMs: 20 } as const;

/** How long a paced consumer waits after a batch before it takes the next one of that partition. */
export const PACE_MS = PacedBatchByKey.lingerMs;

/**
 * `@EventPattern(topic, SettledAfterGathering)`: a one-message handler that must see the effects of every record
 * produced before its own, on any topic, even those a gathering consumer holds back: it runs no earlier than
 * `SETTLE_MS` after its record was produced (well above every linger here), and not before this service's consumers
 * of its other event topics have handled every record produced before it (a consumer behind, under load, holds what
 * no clock can promise). A contact's erasure must come after the statuses and timeline entries naming the contact
 * that were already on their way, or a late one would outlive it.
 */
export const SettledAfterGathering = { settleMs: 1_000 } as const;

/** How long after its record was produced a settled handler runs at the earliest. */
export const SETTLE_MS = SettledAfterGathering.settleMs;

/**
 * `@EventPattern(topic, { ...GatheredBatchByKey, skipUnreadWhen: { [header]: value } })`: a record whose Kafka header
 * has that value is acknowledged without being parsed or handed to the handler (issue 33: skip what is not yours,
 * unread). A record without the header is read, so records of producers from before the header existed still arrive.
 */
export type SkipUnreadWhen = Readonly<Record<string, string>>;

/**
 * Runs each message's handler inside the caller's context (e.g. a logger scoped to the message's request id).
 * Supplied by the app; the default just calls the handler.
 */
export type MessageScope = <T>(requestId: string, work: () => Promise<T>) => Promise<T>;

const RETRY_BASE_MS = 200;
/** Heartbeats while a handler runs, so a slow one (an LLM call) is not mistaken for a dead consumer. */
const HANDLER_HEARTBEAT_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Key groups of one fetched partition batch handled at once (`batchGroupsConcurrently`). */
const DEFAULT_BATCH_GROUPS_CONCURRENTLY = 64;
/** How long handled offsets may wait to be committed (`commitIntervalMs`): what a crash may replay. */
const DEFAULT_COMMIT_INTERVAL_MS = 1_000;
/** How often a settled handler looks again whether the service's other consumers have caught up with its record. */
const SETTLED_RECHECK_MS = 250;
/** A settled handler still waiting on the other consumers after this says so (once). */
const SETTLED_WAIT_WARN_MS = 30_000;
/** How long shutdown waits for the last commit before leaving the group (the rest is replayed to the next owner). */
const SHUTDOWN_COMMIT_TIMEOUT_MS = 5_000;

/**
 * A Nest microservice transport over kafkajs: `@EventPattern(topic)` handlers consume that topic; `@MessagePattern`
 * handlers answer request-reply calls on the owning service's request topic.
 *
 * Delivery is at-least-once: an offset is committed only after its handler finished (or the message was
 * dead-lettered), so handlers must be idempotent on the envelope id. Handled offsets are committed on an interval
 * (OffsetCommitter), and before a rebalance or shutdown hands the partitions on. A handler that fails with a transient error
 * (database or broker down) is retried without limit; any other failure is retried a few times and then the
 * message goes to `<topic>.dlq`, so one poison message never blocks its partition.
 * The app must let handlers' original errors through (RpcPassThroughFilter, or service-kit's ProblemFilter).
 *
 * A handler registered with `BatchByKey` gets the messages of one key together (see there). Its group is retried as a
 * whole; a group that keeps failing is split, each message then retried and dead-lettered on its own, so a poison
 * message takes no healthy neighbour with it. Offsets are committed only up to the first message not yet handled.
 */
export class KafkaTransport extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('KafkaTransport');
  private consumers: Consumer[] = [];
  /** The event topics this service consumes (one consumer and group each). */
  private eventTopics: string[] = [];
  private readonly committers: OffsetCommitter[] = [];
  private expectedConsumers = 0;
  private readonly joined = new Set<string>();
  private stopping = false;
  /** Aborted on close: ends a consumer's linger (`GatheredBatchByKey`, `BrieflyGatheredBatchByKey`, `PacedBatchByKey`). */
  private readonly closing = new AbortController();
  /** Fetched batches being handled; shutdown commits once they are done. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly connection: KafkaConnection,
    private readonly publisher: EventPublisher,
    private readonly scope: MessageScope = (_id, work) => work(),
  ) {
    super();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (err) {
      this.connection.consumerState = 'crashed';
      callback(err);
    }
  }

  private async start(): Promise<void> {
    const handlers = [...this.messageHandlers.entries()];
    const problems = handlers.filter(([, h]) => h.isEventHandler).flatMap(([pattern, h]) => handlerOptionProblems(pattern, h));
    if (problems.length) throw new Error(`event handlers registered wrongly: ${problems.join('; ')}`);
    const eventTopics = handlers.filter(([, h]) => h.isEventHandler).map(([pattern]) => pattern);
    this.eventTopics = eventTopics;
    const rpcTopics = [...new Set(handlers.filter(([, h]) => !h.isEventHandler).map(([pattern]) => RpcTopics[rpcOwner(pattern)]))];
    if (eventTopics.length + rpcTopics.length === 0) return;

    const options = this.connection.options;
    this.connection.consumerState = 'starting';
    await this.connection.ensureTopics();
    await this.publisher.connect();
    // Every event topic, and the requests, get a consumer (and group) of their own: kafkajs finishes a whole fetch
    // before it fetches again, so on a shared consumer one topic's backlog (a flood of status callbacks, say) would
    // stall the others (the sends) and a caller's request would wait behind it.
    const runs: Promise<Consumer>[] = eventTopics.map((topic) => {
      const handler = this.messageHandlers.get(topic)!;
      return this.runConsumer(this.connection.eventGroup(topic), [topic], options.partitionsConsumedConcurrently ?? 4, isBatchHandler(handler), lingerOf(handler));
    });
    if (rpcTopics.length) runs.push(this.runConsumer(this.connection.serviceGroup('-rpc'), rpcTopics, 4, false, 0));
    this.expectedConsumers = runs.length;
    this.consumers = await Promise.all(runs);
    this.log.log(`consuming ${[...eventTopics, ...rpcTopics].join(', ')}`);
  }

  private async runConsumer(groupId: string, topics: string[], concurrency: number, batched: boolean, lingerMs: number): Promise<Consumer> {
    const consumer = this.connection.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 20_000,
      maxWaitTimeInMs: this.connection.options.fetchMaxWaitMs,
      retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 20 },
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (this.stopping) return;
      if (payload.restart) {
        this.log.warn(`consumer ${groupId} crashed and restarts: ${String(payload.error)}`);
        return;
      }
      this.connection.consumerState = 'crashed';
      // A consumer that will not restart leaves the service alive but deaf: exit so the supervisor restarts it.
      this.log.error(`consumer ${groupId} crashed for good: ${String(payload.error)}; exiting`);
      process.exit(70);
    });
    const committer = new OffsetCommitter(
      (offsets) => consumer.commitOffsets(offsets),
      this.connection.options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS,
      (err) => this.log.warn(`committing offsets of ${groupId} failed (retried; a crash meanwhile replays them): ${describe(err)}`),
    );
    this.committers.push(committer);
    // Before the partitions move to another member: what is handled is committed, so it is not replayed.
    consumer.on(consumer.events.REBALANCING, () => void committer.flush());
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      committer.retain(payload.memberAssignment);
      this.joined.add(groupId);
      if (this.joined.size >= this.expectedConsumers && this.connection.consumerState !== 'crashed') this.connection.consumerState = 'running';
    });
    await consumer.connect();
    // Topics just created may not be in every broker's metadata yet ("does not host this topic-partition"): retry.
    await retryRetriable(() => consumer.subscribe({ topics: topics.map((t) => this.connection.topic(t)), fromBeginning: true }));
    // Offsets are committed by the committer, never by kafkajs after each batch.
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: concurrency,
      eachBatch: async (payload) => {
        await this.track(this.onBatch(payload, committer, batched));
        // A partition with more waiting (a backlog the fetch's size cut short) goes on at once: lingering is for
        // gathering what has not arrived yet. (Counting the handling's time against the linger was tried: at 100/s the
        // paced consumers then fetched a third more often, 12.98 CPU ms a message against 10.9-11.8.)
        if (lingerMs > 0 && payload.batch.offsetLag() === '0') await this.linger(lingerMs);
      },
    });
    return consumer;
  }

  /** Waits `ms`, or less once the transport is closing (shutdown never waits on a lingering consumer). */
  private async linger(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.closing.signal }).catch(() => undefined);
  }

  private async track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /**
   * A fetched batch of one partition. Topics without a batch handler (and requests) go message by message as in
   * `onMessage`; for a batch handler, the messages are grouped by key (first appearance order) and each group handled
   * in one call, up to `batchGroupsConcurrently` groups at once. Each handled offset is resolved (kafkajs fetches on
   * from there) and handed to the committer.
   */
  private async onBatch({ batch, resolveOffset: resolve, heartbeat, isRunning, isStale }: EachBatchPayload, committer: OffsetCommitter, batched: boolean): Promise<void> {
    if (this.stopping) return;
    const resolveOffset = (offset: string) => {
      resolve(offset);
      committer.handled(batch.topic, batch.partition, offset);
    };
    const logicalTopic = this.connection.logicalTopic(batch.topic);
    const handler = this.messageHandlers.get(logicalTopic);
    if (!batched || !handler || !isBatchHandler(handler)) {
      for (const message of batch.messages) {
        if (!isRunning() || isStale() || this.stopping) return;
        await this.onMessage({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause: () => () => undefined });
        resolveOffset(message.offset);
        await heartbeat();
      }
      return;
    }

    // Groups of different keys run side by side (bounded); a key's messages stay in one group, in offset order.
    // Offsets are resolved only through the watermark, so a group finishing early never commits past an unhandled one.
    const watermark = new OffsetWatermark(batch.messages.map((m) => m.offset));
    const limit = Math.max(1, this.connection.options.batchGroupsConcurrently ?? DEFAULT_BATCH_GROUPS_CONCURRENTLY);
    await runBounded(groupByKey(batch.messages), limit, () => isRunning() && !isStale() && !this.stopping, async ([key, messages]) => {
      await this.handleGroup(handler, logicalTopic, batch.partition, key, messages, heartbeat);
      const committable = watermark.settle(messages.map((m) => m.offset));
      if (committable !== null) resolveOffset(committable);
      await heartbeat();
    });
  }

  private async handleGroup(
    handler: MessageHandler,
    topic: string,
    partition: number,
    key: string,
    messages: KafkaMessage[],
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    const parsed: { envelope: EventEnvelope; raw: string; context: KafkaContext }[] = [];
    for (const message of messages) {
      if (skipsUnread(handler, message.headers)) {
        countSkipped(topic);
        continue;
      }
      const headers = decodeHeaders(message.headers);
      const requestId = headers[Headers.RequestId] ?? randomUUID();
      const raw = message.value?.toString('utf8') ?? '';
      try {
        parsed.push({ envelope: JSON.parse(raw) as EventEnvelope, raw, context: new KafkaContext(topic, partition, message.offset, headers, requestId, 1) });
      } catch (err) {
        await this.deadLetter(topic, key, raw, headers, err, 0);
      }
    }
    if (parsed.length === 0) return;
    const maxAttempts = this.connection.options.maxHandlerAttempts ?? 3;
    await this.scope(parsed[0].context.requestId, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const context = new KafkaBatchContext(topic, partition, key, parsed.map((p) => p.context), attempt);
          await withHeartbeat(heartbeat, () => this.invoke(handler, parsed.map((p) => p.envelope), context));
          return;
        } catch (err) {
          if (this.stopping) throw err;
          const transient = isTransientError(err);
          if (!transient && attempt >= maxAttempts) {
            if (parsed.length === 1) {
              await this.deadLetter(topic, key, parsed[0].raw, parsed[0].context.headers, err, attempt);
              return;
            }
            this.log.warn(`${topic}: a group of ${parsed.length} messages keeps failing (${describe(err)}); handling them one by one`);
            const readable = messages.filter((m) => parsed.some((p) => p.context.offset === m.offset));
            for (const one of readable) await this.handleGroup(handler, topic, partition, key, [one], heartbeat);
            return;
          }
          const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 10));
          this.log.warn(
            `${topic} group of ${parsed.length} (${parsed[0].envelope.id}…) failed (attempt ${attempt}${transient ? ', transient' : `/${maxAttempts}`}): ${describe(err)}; retrying in ${wait} ms`,
          );
          // Shutdown cuts the wait short and leaves the group uncommitted: the next owner handles it.
          await sleepWithHeartbeat(wait, heartbeat, this.closing.signal);
          if (this.stopping) throw err;
        }
      }
    });
  }

  private async onMessage({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    const logicalTopic = this.connection.logicalTopic(topic);
    const headers = decodeHeaders(message.headers);
    const requestId = headers[Headers.RequestId] ?? randomUUID();
    const raw = message.value?.toString('utf8') ?? '';
    const context = (attempt: number) => new KafkaContext(logicalTopic, partition, message.offset, headers, requestId, attempt);

    await this.scope(requestId, async () => {
      if ((Object.values(RpcTopics) as string[]).includes(logicalTopic)) {
        await this.answerRequest(raw, headers, context(1));
        return;
      }
      const handler = this.messageHandlers.get(logicalTopic);
      if (skipsUnread(handler, message.headers)) return void countSkipped(logicalTopic);
      let envelope: EventEnvelope;
      try {
        envelope = JSON.parse(raw) as EventEnvelope;
      } catch (err) {
        await this.deadLetter(logicalTopic, message.key?.toString() ?? '', raw, headers, err, 0);
        return;
      }
      if (!handler) return;
      if (settleOf(handler) > 0) {
        const producedAt = Number(message.timestamp);
        const settling = settleOf(handler) - (Date.now() - producedAt);
        if (settling > 0) await sleepWithHeartbeat(settling, heartbeat, this.closing.signal);
        await this.untilOthersHandled(logicalTopic, producedAt, settleOf(handler), heartbeat, envelope.id);
        // Shut down while it settled: not handled, so not committed; the next owner handles it.
        if (this.stopping) throw new Error(`shutting down before ${envelope.id} settled; left to the next owner`);
      }
      await this.runEventHandler(handler, envelope, raw, message.key?.toString() ?? '', headers, context, heartbeat);
    });
  }

  /**
   * Waits until this service's consumers of its other event topics have handled (and committed) every record produced
   * before `producedAt`; ends early on shutdown. The broker not answering counts as not caught up: it is asked again.
   */
  private async untilOthersHandled(topic: string, producedAt: number, settleMs: number, heartbeat: () => Promise<void>, eventId: string): Promise<void> {
    const started = Date.now();
    // Asks about the moment a settling ago (never before the record; fixed for this wait, so a consumer that is always
    // a little behind still gets there): the connection remembers the answer, which covers the records after this one
    // too, so a run of them (a bulk deletion) asks once. Other settled topics are not waited on: they wait themselves,
    // and two would wait on each other.
    const before = new Date(producedAt);
    const lookAt = new Date(Math.max(producedAt, started - settleMs));
    let behind = this.eventTopics.filter((t) => t !== topic && settleOf(this.messageHandlers.get(t)!) === 0);
    let warned = false;
    while (!this.stopping) {
      const handled = await Promise.all(behind.map((t) => this.connection.handledEventsBefore(t, before, lookAt).catch(() => false)));
      behind = behind.filter((_, i) => !handled[i]);
      if (behind.length === 0) return;
      if (!warned && Date.now() - started > SETTLED_WAIT_WARN_MS) {
        warned = true;
        this.log.warn(`${topic} event ${eventId} waits for this service's consumers of ${behind.join(', ')} to handle what came before it`);
      }
      await sleepWithHeartbeat(SETTLED_RECHECK_MS, heartbeat, this.closing.signal);
    }
  }

  private async runEventHandler(
    handler: MessageHandler,
    envelope: EventEnvelope,
    raw: string,
    key: string,
    headers: Record<string, string>,
    context: (attempt: number) => KafkaContext,
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    const maxAttempts = this.connection.options.maxHandlerAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.invoke(handler, envelope, context(attempt));
        return;
      } catch (err) {
        if (this.stopping) throw err; // leave the offset uncommitted; another instance takes over
        const transient = isTransientError(err);
        if (!transient && attempt >= maxAttempts) {
          await this.deadLetter(context(attempt).topic, key, raw, headers, err, attempt);
          return;
        }
        const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 10));
        this.log.warn(
          `${context(attempt).topic} event ${envelope.id} failed (attempt ${attempt}${transient ? ', transient' : `/${maxAttempts}`}): ${describe(err)}; retrying in ${wait} ms`,
        );
        await sleepWithHeartbeat(wait, heartbeat, this.closing.signal);
        if (this.stopping) throw err;
      }
    }
  }

  private async answerRequest(raw: string, headers: Record<string, string>, context: KafkaContext): Promise<void> {
    const pattern = headers[Headers.RpcPattern];
    const correlationId = headers[Headers.CorrelationId];
    const replyTopic = headers[Headers.ReplyTopic] ?? RPC_REPLY_TOPIC;
    const deadline = Number(headers['deadline'] ?? 0);
    if (!pattern || !correlationId) return;
    // The caller has given up: doing the work now could change state behind an answer it already gave.
    if (deadline && Date.now() > deadline) return;

    let result: RpcResult<unknown>;
    const handler = this.messageHandlers.get(pattern);
    if (!handler || handler.isEventHandler) {
      result = { ok: false, problem: problem(501, ProblemTypes.internal, 'Not Implemented', `No handler for ${pattern}.`) };
    } else {
      try {
        result = { ok: true, data: await this.invoke(handler, JSON.parse(raw), context) };
      } catch (err) {
        const p = problemOf(err);
        if (p) result = { ok: false, problem: p };
        else {
          const transient = isTransientError(err);
          this.log.error(`request ${pattern} failed: ${describe(err)}`, err instanceof Error ? err.stack : undefined);
          result = {
            ok: false,
            problem: transient
              ? problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'A dependency is temporarily unavailable; retry shortly.')
              : problem(500, ProblemTypes.internal, 'Internal Server Error', 'An unexpected error occurred.'),
          };
        }
      }
    }
    await this.publisher
      .publish([{ topic: replyTopic, key: correlationId, value: result, headers: { [Headers.CorrelationId]: correlationId, [Headers.RequestId]: context.requestId } }])
      .catch((err: unknown) => this.log.warn(`could not reply to ${pattern}: ${describe(err)}`));
  }

  private async invoke(handler: MessageHandler, payload: unknown, context: KafkaContext | KafkaBatchContext): Promise<unknown> {
    const result = await handler(payload, context);
    return lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }

  private async deadLetter(topic: string, key: string, raw: string, headers: Record<string, string>, err: unknown, attempts: number): Promise<void> {
    this.log.error(`${topic}: moving a message to ${topic}${DLQ_SUFFIX} after ${attempts} attempt(s): ${describe(err)}`);
    await this.publisher.publish([
      {
        topic: `${topic}${DLQ_SUFFIX}`,
        key,
        value: safeJson(raw),
        headers: {
          ...headers,
          [Headers.DlqError]: describe(err).slice(0, 1000),
          [Headers.DlqSourceTopic]: topic,
          [Headers.DlqAttempts]: String(attempts),
        },
      },
    ]);
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.closing.abort();
    // Handlers finish (or give up, as they do once stopping), then what they handled is committed while the
    // consumers still belong to their groups; only then do they leave.
    await Promise.allSettled([...this.inFlight]);
    await Promise.all(this.committers.map((c) => withTimeout(c.flush(), SHUTDOWN_COMMIT_TIMEOUT_MS)));
    for (const committer of this.committers) committer.stop();
    await Promise.all(this.consumers.map((c) => c.disconnect().catch(() => undefined)));
    this.connection.consumerState = 'idle';
  }

  on(): void {
    /* no transport-level events to subscribe to */
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }
}

/** Runs work while heartbeating the group, so a handler slower than the session time-out keeps its partitions. */
async function withHeartbeat<T>(heartbeat: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void heartbeat().catch(() => undefined), HANDLER_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? String(v[0]) : Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  }
  return out;
}

function problemOf(err: unknown) {
  if (err instanceof RpcProblemError) return err.problem;
  const p = (err as { problem?: unknown })?.problem;
  return p && typeof p === 'object' && 'status' in p ? (p as RpcProblemError['problem']) : undefined;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return { unparseable: raw.slice(0, 100_000) };
  }
}

/** Waits for work at most `ms`, then goes on regardless (the work keeps running). */
async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Waits `ms` heartbeating each second; returns early once `signal` aborts (shutdown never waits out a back-off). */
async function sleepWithHeartbeat(ms: number, heartbeat: () => Promise<void>, signal: AbortSignal): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !signal.aborted) {
    await delay(Math.min(1000, end - Date.now()), undefined, { signal }).catch(() => undefined);
    if (!signal.aborted) await heartbeat().catch(() => undefined);
  }
}
