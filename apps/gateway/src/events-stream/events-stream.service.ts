import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ProblemTypes, Topics, problem, type EventEnvelope } from '@parley/contracts';
import { KafkaConnection } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import type { ServerResponse } from 'node:http';
import { SseConnection, type SseLimits } from './sse-connection';
import { eventFrame } from './sse-frame';

/**
 * The events the dashboard shows: the tenant webhook bodies (CONTRACT.md §5, §13), and `conversation.updated`, the
 * inbox's live feed (§12), which is the dashboard's alone; nothing internal.
 */
export const STREAMED_TOPICS = [
  Topics.MessageReceived,
  Topics.MessageStatus,
  Topics.LeadCaptured,
  Topics.LeadUpdated,
  Topics.AppointmentBooked,
  Topics.AppointmentRescheduled,
  Topics.AppointmentCancelled,
  Topics.ConversationHandoff,
  Topics.ConversationUpdated,
  Topics.TemplateStatus,
  // The records (issue 32): the contacts list and the pipeline follow imports, new leads and colleagues' changes.
  Topics.ContactCreated,
  Topics.ContactUpdated,
  Topics.ContactDeleted,
  Topics.DealCreated,
  Topics.DealStageChanged,
] as const;

/** Open streams one tenant may hold on one instance (a few dashboard tabs; more is a leak or abuse). */
export const MAX_STREAMS_PER_TENANT = 10;

export const STREAM_LIMITS: SseLimits = { keepAliveMs: 15_000, retryMs: 3_000, maxBufferedBytes: 1024 * 1024 };

/** How long a stream request waits for the consumer to join before answering 503. */
const CONSUMER_READY_TIMEOUT_MS = 15_000;

type Consumer = ReturnType<KafkaConnection['kafka']['consumer']>;

/**
 * Fans the public events out to the open dashboard streams of this instance (`GET /api/v1/events/stream`).
 *
 * One consumer per instance, in a group of its own (a shared group would split the partitions between instances, and
 * each would miss the events of clients connected elsewhere). It starts at the end of the topics and commits nothing:
 * the stream is a live feed, and a client refetches its lists when it (re)connects. It is started lazily, by the first
 * stream: an instance that never serves the dashboard never joins a group, and boot and readiness do not wait on it.
 * It then stays up, so reconnects do not pay for a group join.
 */
@Injectable()
export class EventsStreamService implements OnModuleDestroy {
  private readonly logger = new Logger(EventsStreamService.name);
  private readonly streams = new Map<string, Set<SseConnection>>();
  private consumer?: Consumer;
  private groupId?: string;
  private starting?: Promise<void>;

  constructor(private readonly kafka: KafkaConnection) {}

  /** Resolves once events published from now on reach the streams; a 503 problem when Kafka cannot be reached in time. */
  async ready(): Promise<void> {
    this.starting ??= this.startConsumer().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), CONSUMER_READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.starting, timeout]);
    } catch (err) {
      this.logger.warn(`event stream unavailable: ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The event stream cannot be opened now; retry shortly.'), {
        'retry-after': '5',
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Refuses a stream over the tenant's cap with a 429 problem. */
  checkCapacity(tenantId: string): void {
    if (this.openStreams(tenantId) < MAX_STREAMS_PER_TENANT) return;
    throw new ProblemException(
      problem(429, ProblemTypes.rateLimited, 'Too Many Streams', `At most ${MAX_STREAMS_PER_TENANT} event streams may be open at once; close one first.`),
      { 'retry-after': '30' },
    );
  }

  /** Serves the tenant's events on an answer whose headers are already written. */
  attach(tenantId: string, response: ServerResponse): SseConnection {
    const connection = new SseConnection(tenantId, response, STREAM_LIMITS, (closed) => this.detach(closed));
    if (!connection.isOpen) return connection; // the client left while the headers were on their way
    const streams = this.streams.get(tenantId) ?? new Set<SseConnection>();
    streams.add(connection);
    this.streams.set(tenantId, streams);
    return connection;
  }

  openStreams(tenantId?: string): number {
    if (tenantId) return this.streams.get(tenantId)?.size ?? 0;
    let total = 0;
    for (const streams of this.streams.values()) total += streams.size;
    return total;
  }

  private detach(connection: SseConnection): void {
    const streams = this.streams.get(connection.tenantId);
    streams?.delete(connection);
    if (streams?.size === 0) this.streams.delete(connection.tenantId);
  }

  private dispatch(value: Buffer | null): void {
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(value?.toString('utf8') ?? '') as EventEnvelope;
    } catch {
      return; // not ours to judge: the owning consumers dead-letter malformed events
    }
    // The tenant comes from the envelope only; a stream never sees an event of another tenant.
    const streams = envelope.tenant_id ? this.streams.get(envelope.tenant_id) : undefined;
    if (!streams?.size) return;
    const frame = eventFrame(envelope);
    for (const connection of streams) connection.send(frame);
  }

  private async startConsumer(): Promise<void> {
    await this.kafka.ensureTopics();
    const { consumer, groupId } = this.kafka.ownGroupConsumer('gateway-events-stream');
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart) return;
      // The client gave up: let the next stream start a fresh consumer, and make the current clients reconnect.
      this.logger.error(`event stream consumer stopped: ${String(payload.error)}`);
      this.starting = undefined;
      this.consumer = undefined;
      for (const streams of this.streams.values()) for (const connection of streams) connection.end();
    });
    this.consumer = consumer;
    this.groupId = groupId;
    try {
      await consumer.connect();
      // Pinned to the topics' ends as they are now: every event published from then on is read.
      await this.kafka.runFromTheEnd(consumer, STREAMED_TOPICS, async (message) => this.dispatch(message.value));
    } catch (err) {
      // The next stream tries again with a fresh consumer.
      this.consumer = undefined;
      await this.kafka.leaveOwnGroup(consumer, groupId);
      throw err;
    }
  }

  /** Ends every stream before the HTTP server closes (it would otherwise wait on them), then leaves and deletes the group. */
  async onModuleDestroy(): Promise<void> {
    for (const streams of this.streams.values()) for (const connection of streams) connection.end();
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer && this.groupId) await this.kafka.leaveOwnGroup(consumer, this.groupId);
  }
}
