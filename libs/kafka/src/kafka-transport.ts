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
import type { Consumer, EachMessagePayload, IHeaders } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { lastValueFrom } from 'rxjs';
import { RpcProblemError, isTransientError } from './errors';
import { EventPublisher } from './event-publisher';
import { KafkaConnection } from './kafka-connection';

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
 * Runs each message's handler inside the caller's context (e.g. a logger scoped to the message's request id).
 * Supplied by the app; the default just calls the handler.
 */
export type MessageScope = <T>(requestId: string, work: () => Promise<T>) => Promise<T>;

const RETRY_BASE_MS = 200;
const RETRY_MAX_MS = 30_000;

/**
 * A Nest microservice transport over kafkajs: `@EventPattern(topic)` handlers consume that topic; `@MessagePattern`
 * handlers answer request-reply calls on the owning service's request topic.
 *
 * Delivery is at-least-once: an offset is committed only after its handler finished (or the message was
 * dead-lettered), so handlers must be idempotent on the envelope id. A handler that fails with a transient error
 * (database or broker down) is retried without limit; any other failure is retried a few times and then the
 * message goes to `<topic>.dlq`, so one poison message never blocks its partition.
 * The app must let handlers' original errors through (RpcPassThroughFilter, or service-kit's ProblemFilter).
 */
export class KafkaTransport extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('KafkaTransport');
  private consumers: Consumer[] = [];
  private expectedConsumers = 0;
  private readonly joined = new Set<string>();
  private stopping = false;

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
    const eventTopics = handlers.filter(([, h]) => h.isEventHandler).map(([pattern]) => pattern);
    const rpcTopics = [...new Set(handlers.filter(([, h]) => !h.isEventHandler).map(([pattern]) => RpcTopics[rpcOwner(pattern)]))];
    if (eventTopics.length + rpcTopics.length === 0) return;

    const options = this.connection.options;
    this.connection.consumerState = 'starting';
    await this.connection.ensureTopics();
    await this.publisher.connect();
    const group = this.connection.group(options.groupId ?? options.clientId);
    // Requests get a consumer (and group) of their own: kafkajs finishes a whole fetch before it fetches again, so
    // on a shared consumer a caller's request would wait behind a backlog of events.
    const runs: Promise<Consumer>[] = [];
    if (eventTopics.length) runs.push(this.runConsumer(group, eventTopics, options.partitionsConsumedConcurrently ?? 4));
    if (rpcTopics.length) runs.push(this.runConsumer(`${group}-rpc`, rpcTopics, 4));
    this.expectedConsumers = runs.length;
    this.consumers = await Promise.all(runs);
    this.log.log(`consuming ${[...eventTopics, ...rpcTopics].join(', ')}`);
  }

  private async runConsumer(groupId: string, topics: string[], concurrency: number): Promise<Consumer> {
    const consumer = this.connection.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 20_000,
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
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.joined.add(groupId);
      if (this.joined.size >= this.expectedConsumers && this.connection.consumerState !== 'crashed') this.connection.consumerState = 'running';
    });
    await consumer.connect();
    await consumer.subscribe({ topics: topics.map((t) => this.connection.topic(t)), fromBeginning: true });
    await consumer.run({ partitionsConsumedConcurrently: concurrency, eachMessage: (payload) => this.onMessage(payload) });
    return consumer;
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
      let envelope: EventEnvelope;
      try {
        envelope = JSON.parse(raw) as EventEnvelope;
      } catch (err) {
        await this.deadLetter(logicalTopic, message.key?.toString() ?? '', raw, headers, err, 0);
        return;
      }
      if (!handler) return;
      await this.runEventHandler(handler, envelope, raw, message.key?.toString() ?? '', headers, context, heartbeat);
    });
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
        await sleepWithHeartbeat(wait, heartbeat);
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

  private async invoke(handler: MessageHandler, payload: unknown, context: KafkaContext): Promise<unknown> {
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

async function sleepWithHeartbeat(ms: number, heartbeat: () => Promise<void>): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(1000, end - Date.now())));
    await heartbeat().catch(() => undefined);
  }
}
