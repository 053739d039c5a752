import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DLQ_SUFFIX, Headers, Topics, type EventEnvelope } from '@parley/contracts';
import { BatchByKey, EventPublisher, GatheredBatchByKey, KafkaBatchContext, KafkaConnection, KafkaTransport, RpcPassThroughFilter, SETTLE_MS, SettledAfterGathering, type KafkaOptions } from '@parley/kafka';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { KafkaHarness } from './kafka-harness';
import { testInfra, uniqueKafkaNamespace } from './infra';
import { pollUntil } from './poll';

type Probe = EventEnvelope<'message.inbound', { kind: string }>;

/** Each call of the batch handler: the event ids it got, the attempt and the request ids. */
const calls: { ids: string[]; attempt: number; requestIds: string[] }[] = [];
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();
const hold = (): void => {
  held = new Promise((resolve) => (release = resolve));
};

/** How the `wait-for-other` group ended: the other key's group started while it ran, or it gave up waiting. */
let waitOutcome: 'other started' | 'timed out' | undefined;
/** While set, `crash` messages fail (transiently, so they are retried rather than dead-lettered) once let go. */
let crashing = true;
let releaseCrash: () => void = () => undefined;
const crashHeld = new Promise<void>((resolve) => (releaseCrash = resolve));

@Controller()
class BatchHandlers {
  @EventPattern(Topics.MessageInbound, BatchByKey)
  async handle(@Payload() events: Probe[], @Ctx() ctx: KafkaBatchContext): Promise<void> {
    calls.push({ ids: events.map((e) => e.id), attempt: ctx.attempt, requestIds: ctx.messages.map((m) => m.requestId) });
    if (events.some((e) => e.data.kind === 'wait-for-other')) {
      // Handled one group after another, the other key's group could not start before this one ends: deadlock.
      waitOutcome = await pollUntil(() => calls.some((c) => c.ids.includes('evt_other_1')), { timeoutMs: 20_000 }).then(
        () => 'other started' as const,
        () => 'timed out' as const,
      );
    }
    if (events.some((e) => e.data.kind === 'crash')) {
      await crashHeld;
      if (crashing) throw Object.assign(new Error('the process is going down'), { code: 'ECONNRESET' });
    }
    if (events.some((e) => e.data.kind === 'hold')) await held;
    if (events.some((e) => e.data.kind === 'slow')) await new Promise((r) => setTimeout(r, 13_000));
    if (events.some((e) => e.data.kind === 'poison')) throw new TypeError('cannot handle this payload');
    if (events.some((e) => e.data.kind === 'flaky') && flaky) throw Object.assign(new Error('the database is restarting'), { code: 'ECONNREFUSED' });
  }

  @EventPattern(Topics.MessageStatus, { ...GatheredBatchByKey, skipUnreadWhen: { [Headers.Campaign]: 'no' } })
  async gathered(@Payload() events: Probe[]): Promise<void> {
    gatheredCalls.push(events.map((e) => e.id));
  }

  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  settled(@Payload() event: Probe): void {
    settledAt.set(event.id, Date.now());
  }
}

/** While set, `flaky` messages fail transiently (retried with a growing back-off). */
let flaky = true;

/** When the settled handler ran, by event id. */
const settledAt = new Map<string, number>();

/** Each call of the gathering handler: the event ids it got. */
const gatheredCalls: string[][] = [];

@Module({ controllers: [BatchHandlers] })
class BatchModule {}

/** A transport instance of its own on `namespace` (one partition handled at a time), and how to stop it as a service would. */
async function startInstance(namespace: string, clientId: string, options: Partial<KafkaOptions> = {}): Promise<{ stop: () => Promise<void> }> {
  const conn = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId, namespace, partitionsConsumedConcurrently: 1, ...options });
  const pub = new EventPublisher(conn);
  const app = await NestFactory.createMicroservice(BatchModule, { strategy: new KafkaTransport(conn, pub), logger: ['error'] });
  app.useGlobalFilters(new RpcPassThroughFilter());
  await app.listen();
  return { stop: async () => (await app.close(), await pub.onApplicationShutdown(), await conn.onApplicationShutdown()) };
}

/** Keys of `message.inbound` that land on the same partition as `key` (the producer's default partitioner). */
function keysOnPartitionOf(key: string, count: number): string[] {
  const partitionMetadata = Array.from({ length: 8 }, (_, partitionId) => ({ partitionId, leader: 0 }) as PartitionMetadata);
  const partitionOf = (k: string) => Partitioners.DefaultPartitioner()({ topic: 't', partitionMetadata, message: { key: k, value: null } });
  const keys: string[] = [];
  for (let i = 0; keys.length < count; i++) if (partitionOf(`ten_T:+9${i}`) === partitionOf(key)) keys.push(`ten_T:+9${i}`);
  return keys;
}

/** KafkaTransport's batch handlers (`BatchByKey`) on the real broker: the burst rule's transport half. */
describe('KafkaTransport batch handlers (real broker)', () => {
  const namespace = uniqueKafkaNamespace('batch');
  let service: INestMicroservice;
  let connection: KafkaConnection;
  let publisher: EventPublisher;
  let harness: KafkaHarness;

  const send = (id: string, kind: string, key = 'ten_T:+1') =>
    harness.publisher.publishEvent({ id, type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind } }, key, `req-${id}`);
  const callsOf = (id: string) => calls.filter((c) => c.ids.includes(id));

  beforeAll(async () => {
    connection = new KafkaConnection({
      brokers: testInfra().kafkaBrokers.split(','),
      clientId: 'batch-transport-test',
      namespace,
      maxHandlerAttempts: 3,
      partitionsConsumedConcurrently: 1,
    });
    publisher = new EventPublisher(connection);
    service = await NestFactory.createMicroservice(BatchModule, { strategy: new KafkaTransport(connection, publisher), logger: ['error'] });
    service.useGlobalFilters(new RpcPassThroughFilter());
    await service.listen();
    harness = await KafkaHarness.start(namespace);
  });

  afterAll(async () => {
    release();
    await harness?.close();
    await service?.close();
    await publisher?.onApplicationShutdown();
    await connection?.onApplicationShutdown();
  });

  it('hands a lone message over at once, and the messages of a key that arrived meanwhile together, in order', async () => {
    hold();
    await send('evt_first', 'hold');
    await pollUntil(() => callsOf('evt_first').length > 0, { description: 'the lone first message, handled without waiting for more' });
    expect(callsOf('evt_first')[0].ids).toEqual(['evt_first']);

    await send('evt_second', 'fine');
    await send('evt_third', 'fine');
    await send('evt_other_key', 'fine', 'ten_T:+2');
    // Wait until the three are on the broker (a probe sees them) before letting the first handler finish.
    const probe = await harness.probe<Probe>(Topics.MessageInbound);
    await pollUntil(() => probe.find((m) => m.value.id === 'evt_other_key'), { description: 'the burst on the broker' });
    await probe.stop();
    release();

    const burst = await pollUntil(() => callsOf('evt_second')[0], { description: 'the burst handled' });
    expect(burst.ids).toEqual(['evt_second', 'evt_third']);
    expect(burst.requestIds).toEqual(['req-evt_second', 'req-evt_third']);
    await pollUntil(() => callsOf('evt_other_key').length > 0, { description: 'the other key' });
    expect(callsOf('evt_other_key')[0].ids).toEqual(['evt_other_key']);
    expect(callsOf('evt_first')).toHaveLength(1);
  });

  it('gathers a steady trickle for a GatheredBatchByKey handler: 40 messages over 2 s in a handful of calls, in order', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `evt_trickle_${i}`);
    for (const id of ids) {
      await harness.publisher.publishEvent({ id, type: 'message.status', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'fine' } }, 'ten_T:+1');
      // paces the load (a message every 50 ms), as a trickle of status callbacks would come
      await new Promise((r) => setTimeout(r, 50));
    }
    await pollUntil(() => gatheredCalls.flat().length >= ids.length, { description: 'the trickle handled' });
    expect(gatheredCalls.flat()).toEqual(ids);
    // one call per held fetch (up to 500 ms each): a consumer that hands over each message as it comes makes ~40
    expect(gatheredCalls.length).toBeLessThanOrEqual(10);
    process.stderr.write(`[gathered] 40 messages over 2 s in ${gatheredCalls.length} calls\n`);
  });

  it("skips the records whose header says they are not the handler's own (skipUnreadWhen), reads the rest, a record without the header too", async () => {
    const before = gatheredCalls.flat().length;
    const record = (id: string, campaign?: string) => ({
      topic: Topics.MessageStatus,
      key: 'ten_T:+2',
      value: { id, type: 'message.status', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'fine' } },
      headers: { [Headers.Campaign]: campaign },
    });
    await harness.publisher.publish([record('evt_skip_no', 'no'), record('evt_skip_yes', 'yes'), record('evt_skip_unsaid'), record('evt_skip_no_again', 'no')]);
    await harness.publisher.publish([record('evt_skip_last', 'yes')]);
    // One key, one partition, in order: once the last is handled, the records before it were handled or skipped.
    await pollUntil(() => gatheredCalls.flat().includes('evt_skip_last'), { description: 'the last record handled' });
    expect(gatheredCalls.flat().slice(before)).toEqual(['evt_skip_yes', 'evt_skip_unsaid', 'evt_skip_last']);
  });

  it('runs a SettledAfterGathering handler no earlier than SETTLE_MS after its record was produced, and not much later', async () => {
    const produced = Date.now();
    await harness.publisher.publishEvent({ id: 'evt_settled', type: 'contact.deleted', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'fine' } }, 'ten_T:+1');
    const ran = await pollUntil(() => settledAt.get('evt_settled'), { description: 'the settled handler ran' });
    expect(ran - produced).toBeGreaterThanOrEqual(SETTLE_MS);
    // and not held longer than that (a busy machine's delivery aside)
    expect(ran - produced).toBeLessThan(SETTLE_MS + 1_500);
  });

  it('splits a group that keeps failing: the poison message is dead-lettered alone, its neighbour handled', async () => {
    const dlq = await harness.probe<Probe>(`${Topics.MessageInbound}${DLQ_SUFFIX}`);
    hold();
    await send('evt_hold_again', 'hold');
    await pollUntil(() => callsOf('evt_hold_again').length > 0, { description: 'the holding message' });
    await send('evt_poison', 'poison');
    await send('evt_neighbour', 'fine');
    const probe = await harness.probe<Probe>(Topics.MessageInbound);
    await pollUntil(() => probe.find((m) => m.value.id === 'evt_neighbour'), { description: 'both on the broker' });
    await probe.stop();
    release();

    const dead = await pollUntil(() => dlq.find((m) => m.value.id === 'evt_poison'), { description: 'the poison message on the DLQ', timeoutMs: 30_000 });
    expect(dead.headers[Headers.DlqAttempts]).toBe('3');
    expect(callsOf('evt_poison').map((c) => c.ids)).toEqual([
      ['evt_poison', 'evt_neighbour'],
      ['evt_poison', 'evt_neighbour'],
      ['evt_poison', 'evt_neighbour'],
      ['evt_poison'],
      ['evt_poison'],
      ['evt_poison'],
    ]);
    await pollUntil(() => callsOf('evt_neighbour').some((c) => c.ids.length === 1), { description: 'the neighbour handled alone' });
    expect(dlq.find((m) => m.value.id === 'evt_neighbour')).toBeUndefined();
    await dlq.stop();
  });

  it('handles the groups of different keys in one fetched batch side by side, each key in order in one group', async () => {
    const [keyA, keyB] = keysOnPartitionOf('ten_T:+1', 2);
    // Hold the partition so the next fetch brings both keys' messages in one batch.
    hold();
    await send('evt_gate', 'hold');
    await pollUntil(() => callsOf('evt_gate').length > 0, { description: 'the gate message' });
    await send('evt_waiting_1', 'wait-for-other', keyA);
    await send('evt_other_1', 'fine', keyB);
    await send('evt_waiting_2', 'fine', keyA);
    await send('evt_other_2', 'fine', keyB);
    const probe = await harness.probe<Probe>(Topics.MessageInbound);
    await pollUntil(() => probe.find((m) => m.value.id === 'evt_other_2'), { description: 'both keys on the broker' });
    await probe.stop();
    release();

    await pollUntil(() => waitOutcome, { description: "key A's group to see key B's start", timeoutMs: 30_000 });
    expect(waitOutcome).toBe('other started');
    expect(callsOf('evt_waiting_1').map((c) => c.ids)).toEqual([['evt_waiting_1', 'evt_waiting_2']]);
    expect(callsOf('evt_other_1').map((c) => c.ids)).toEqual([['evt_other_1', 'evt_other_2']]);
  });

  it('after a crash with an early group unfinished and a later one done, hands the early group out again', async () => {
    const crashNamespace = uniqueKafkaNamespace('batch-crash');
    const start = () => startInstance(crashNamespace, 'batch-crash-test');
    const crashHarness = await KafkaHarness.start(crashNamespace);
    const [early, late] = keysOnPartitionOf('ten_T:+1', 2);
    const publish = (id: string, kind: string, key: string) =>
      crashHarness.publisher.publishEvent({ id, type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind } }, key, `req-${id}`);
    try {
      // Both on the partition before the consumer starts: its first fetch brings them in one batch.
      await crashHarness.connection.ensureTopics();
      await publish('evt_crash_early', 'crash', early);
      await publish('evt_crash_late', 'fine', late);

      const first = await start();
      await pollUntil(() => callsOf('evt_crash_late').length > 0 && callsOf('evt_crash_early').length > 0, { description: 'both groups under way' });
      // Going down while the early group fails (transiently): the late group is done, yet nothing may be committed.
      const closing = first.stop();
      releaseCrash();
      await closing;
      crashing = false;

      const second = await start();
      try {
        await pollUntil(() => callsOf('evt_crash_early').length > 1 && callsOf('evt_crash_late').length > 1, {
          description: 'both groups handed out again after the restart',
          timeoutMs: 40_000,
        });
      } finally {
        await second.stop();
      }
      expect(callsOf('evt_crash_early').at(-1)!.ids).toEqual(['evt_crash_early']);
    } finally {
      releaseCrash();
      await crashHarness.close();
    }
  }, 90_000);

  it('shuts down at once while a group waits to be retried, and leaves it uncommitted for the next instance', async () => {
    const backoffNamespace = uniqueKafkaNamespace('batch-backoff');
    // Short long-polls: a consumer's disconnect waits for its fetch under way, which would hide the back-off's wait.
    const start = () => startInstance(backoffNamespace, 'batch-backoff-test', { fetchMaxWaitMs: 500 });
    const backoffHarness = await KafkaHarness.start(backoffNamespace);
    try {
      await backoffHarness.connection.ensureTopics();
      await backoffHarness.publisher.publishEvent({ id: 'evt_flaky', type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'flaky' } }, 'ten_T:+4');
      const first = await start();
      // The sixth attempt failed: the back-off before the seventh is 6.4 s (200 ms doubling).
      await pollUntil(() => callsOf('evt_flaky').length >= 6, { description: 'six failed attempts', timeoutMs: 20_000 });
      const stopping = Date.now();
      await first.stop();
      const stopMs = Date.now() - stopping;
      expect(stopMs).toBeLessThan(3_000);
      flaky = false;
      const attempts = callsOf('evt_flaky').length;
      const second = await start();
      try {
        await pollUntil(() => callsOf('evt_flaky').length > attempts, { description: 'the group handed out again', timeoutMs: 40_000 });
      } finally {
        await second.stop();
      }
      process.stderr.write(`[backoff] stopped in ${stopMs} ms during a 6.4 s back-off\n`);
    } finally {
      flaky = false;
      await backoffHarness.close();
    }
  }, 90_000);

  it('keeps heartbeating while a handler outlasts the session time-out, so the message is not handed out again', async () => {
    await send('evt_slow', 'slow');
    await send('evt_after_slow', 'fine', 'ten_T:+3');
    await pollUntil(() => callsOf('evt_after_slow').length > 0, { description: 'the message after the slow one', timeoutMs: 40_000 });
    expect(callsOf('evt_slow')).toHaveLength(1);
  }, 60_000);
});
