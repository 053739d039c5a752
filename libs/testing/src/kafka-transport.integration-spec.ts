import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { DLQ_SUFFIX, Headers, Topics, notFoundProblem, type EventEnvelope } from '@parley/contracts';
import { EventPublisher, KafkaConnection, KafkaContext, KafkaTransport, RpcClient, RpcPassThroughFilter, RpcProblemError, SETTLE_MS, SettledAfterGathering } from '@parley/kafka';
import { KafkaHarness } from './kafka-harness';
import { testInfra, uniqueKafkaNamespace } from './infra';
import { pollUntil } from './poll';

/** What the handlers under test saw, per event id. */
const seen = new Map<string, number>();
let healed = false;
/** When the settled handler ran, per event id. */
const erasedAt = new Map<string, number>();
/** Ends the handling of the `held` event (set while it is being handled). */
let releaseHeld: (() => void) | undefined;

@Controller()
class ProbeHandlers {
  @EventPattern(Topics.MessageInbound)
  handle(@Payload() event: EventEnvelope<'message.inbound', { kind: string }>, @Ctx() ctx: KafkaContext): Promise<void> | void {
    seen.set(event.id, ctx.attempt);
    if (event.data.kind === 'poison') throw new TypeError('cannot handle this payload');
    if (event.data.kind === 'flaky' && !healed) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    if (event.data.kind === 'held') return new Promise<void>((resolve) => (releaseHeld = resolve));
  }

  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  erase(@Payload() event: EventEnvelope<'contact.deleted', Record<string, never>>): void {
    erasedAt.set(event.id, Date.now());
  }

  @MessagePattern('agents.get')
  get(@Payload() req: { name: string }): { name: string } {
    if (req.name === 'missing') throw new RpcProblemError(notFoundProblem('Agent "missing"'));
    return { name: req.name };
  }
}

@Module({ controllers: [ProbeHandlers] })
class ProbeModule {}

describe('KafkaTransport delivery guarantees (real broker)', () => {
  const namespace = uniqueKafkaNamespace('transport');
  let service: INestMicroservice;
  let connection: KafkaConnection;
  let publisher: EventPublisher;
  let harness: KafkaHarness;

  const send = (id: string, kind: string) =>
    harness.publisher.publishEvent({ id, type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind } }, 'ten_T:+1', `req-${id}`);

  beforeAll(async () => {
    connection = new KafkaConnection({
      brokers: testInfra().kafkaBrokers.split(','),
      clientId: 'transport-test',
      namespace,
      maxHandlerAttempts: 3,
      partitionsConsumedConcurrently: 1,
    });
    publisher = new EventPublisher(connection);
    service = await NestFactory.createMicroservice(ProbeModule, { strategy: new KafkaTransport(connection, publisher), logger: ['error'] });
    service.useGlobalFilters(new RpcPassThroughFilter());
    await service.listen();
    harness = await KafkaHarness.start(namespace);
  });

  afterAll(async () => {
    await harness?.close();
    await service?.close();
    await publisher?.onApplicationShutdown();
    await connection?.onApplicationShutdown();
  });

  it('moves a poison message to <topic>.dlq after bounded attempts and keeps consuming the partition', async () => {
    const dlq = await harness.probe<{ data: { kind: string } }>(`${Topics.MessageInbound}${DLQ_SUFFIX}`);
    await send('evt_poison', 'poison');
    await send('evt_after_poison', 'fine'); // same key, so same partition, behind the poison message

    const dead = await pollUntil(() => dlq.find((m) => m.value.data.kind === 'poison'), { description: 'the poison message on the DLQ', timeoutMs: 20_000 });
    expect(dead.headers[Headers.DlqAttempts]).toBe('3');
    expect(dead.headers[Headers.DlqError]).toContain('cannot handle this payload');
    expect(dead.headers[Headers.RequestId]).toBe('req-evt_poison');
    expect(seen.get('evt_poison')).toBe(3);
    await pollUntil(() => seen.has('evt_after_poison'), { description: 'the next message on the partition' });
    await dlq.stop();
  });

  it('retries a transient failure beyond the attempt limit until it heals, without dead-lettering it', async () => {
    const dlq = await harness.probe<{ id: string }>(`${Topics.MessageInbound}${DLQ_SUFFIX}`);
    await send('evt_flaky', 'flaky');
    await send('evt_after_flaky', 'fine'); // queued behind it on the same partition
    await pollUntil(() => (seen.get('evt_flaky') ?? 0) >= 4, { description: 'more attempts than the poison limit', timeoutMs: 20_000 });
    expect(seen.has('evt_after_flaky')).toBe(false); // nothing overtakes a message that is still being retried
    healed = true;
    await pollUntil(() => seen.has('evt_after_flaky'), { description: 'the partition to move on once healed', timeoutMs: 40_000 });
    expect(dlq.find((m) => m.value.id === 'evt_flaky')).toBeUndefined();
    await dlq.stop();
  });

  it('answers request-reply calls, including problems', async () => {
    await expect(harness.rpc.request('agents.get', { tenant_id: 'ten_T', name: 'x' })).resolves.toEqual({ name: 'x' });
    await expect(harness.rpc.request('agents.get', { tenant_id: 'ten_T', name: 'missing' })).rejects.toMatchObject({ problem: { status: 404 } });
  });

  it("a caller is ready before its reply consumer's first long poll ends, and its first requests are answered", async () => {
    // An idle reply consumer long-polls for as long as any consumer; readiness must not wait for such a poll to end.
    const longPoll = 30_000;
    const conn = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'rpc-ready-test', namespace, rpcClient: true, fetchMaxWaitMs: longPoll });
    const pub = new EventPublisher(conn);
    const rpc = new RpcClient(conn, pub);
    try {
      const started = Date.now();
      await rpc.ready();
      expect(Date.now() - started).toBeLessThan(longPoll / 2);
      for (const name of ['first', 'second', 'third']) {
        await expect(rpc.request('agents.get', { tenant_id: 'ten_T', name }, { timeoutMs: 10_000 })).resolves.toEqual({ name });
      }
    } finally {
      await rpc.beforeApplicationShutdown();
      await pub.onApplicationShutdown();
      await conn.onApplicationShutdown();
    }
  });

  it('commits handled offsets on its interval: every partition of the topic ends committed up to its end', async () => {
    await send('evt_commit_1', 'fine');
    await send('evt_commit_2', 'fine');
    await pollUntil(() => seen.has('evt_commit_2'), { description: 'the messages handled' });
    const group = connection.group(`transport-test.${Topics.MessageInbound}`);
    await pollUntil(async () => (await uncommitted(connection, group, Topics.MessageInbound)) === 0, { description: 'every handled offset committed', timeoutMs: 10_000 });
  });

  it('says whether every event produced before a moment is handled and committed: not while one of them is still being handled', async () => {
    const before = new Date();
    await pollUntil(() => connection.handledEventsBefore(Topics.MessageInbound, before), { description: 'the earlier events committed', timeoutMs: 10_000 });
    await send('evt_held', 'held');
    await pollUntil(() => seen.has('evt_held'), { description: 'the held event being handled' });
    const after = new Date();
    // what came before it is still handled; it, not yet
    expect(await connection.handledEventsBefore(Topics.MessageInbound, before)).toBe(true);
    expect(await connection.handledEventsBefore(Topics.MessageInbound, after)).toBe(false);
    // what is known is remembered: the earlier moment needs no look, not even one at the later moment (which would say no)
    expect(await connection.handledEventsBefore(Topics.MessageInbound, before, after)).toBe(true);
    releaseHeld!();
    await pollUntil(() => connection.handledEventsBefore(Topics.MessageInbound, after), { description: 'the held event committed', timeoutMs: 10_000 });
    // a group that never committed anything has handled nothing before now, and everything before the topic's first event
    const stranger = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'never-consumed', namespace });
    try {
      expect(await stranger.handledEventsBefore(Topics.MessageInbound, after)).toBe(false);
      expect(await stranger.handledEventsBefore(Topics.MessageInbound, new Date(0))).toBe(true);
    } finally {
      await stranger.onApplicationShutdown();
    }
  });

  it("runs a settled handler (a contact's erasure) only once the service's other consumers handled what came before its record, past the settling", async () => {
    await send('evt_held_before_erasure', 'held');
    await pollUntil(() => seen.has('evt_held_before_erasure'), { description: 'the held event being handled' });
    await harness.publisher.publishEvent({ id: 'evt_erase', type: 'contact.deleted', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: {} }, 'ten_T:contact');
    // Time itself is the precondition here, not an effect waited for: past the settling, the clock alone would run it.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1_000));
    expect(erasedAt.has('evt_erase')).toBe(false);
    const releasedAt = Date.now();
    releaseHeld!();
    const erased = await pollUntil(() => erasedAt.get('evt_erase'), { description: 'the erasure once the held event is handled', timeoutMs: 10_000 });
    expect(erased).toBeGreaterThanOrEqual(releasedAt);
  });

  it('commits what it handled when it shuts down, however long its interval, so the next instance replays nothing', async () => {
    const ns = uniqueKafkaNamespace('commit');
    const conn = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'commit-test', namespace: ns, commitIntervalMs: 600_000 });
    const pub = new EventPublisher(conn);
    const app = await NestFactory.createMicroservice(ProbeModule, { strategy: new KafkaTransport(conn, pub), logger: ['error'] });
    app.useGlobalFilters(new RpcPassThroughFilter());
    await app.listen();
    const group = conn.group(`commit-test.${Topics.MessageInbound}`);
    try {
      for (const id of ['evt_shutdown_1', 'evt_shutdown_2']) {
        await pub.publishEvent({ id, type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'fine' } }, 'ten_T:+2');
      }
      await pollUntil(() => seen.has('evt_shutdown_2'), { description: 'the messages handled' });
      expect(await uncommitted(conn, group, Topics.MessageInbound)).toBe(2); // no commit per batch
      await app.close();
      expect(await uncommitted(conn, group, Topics.MessageInbound)).toBe(0);
    } finally {
      await app.close();
      await pub.onApplicationShutdown();
      await conn.onApplicationShutdown();
    }
  });
});

/** Messages of the topic past the group's committed offsets (a partition never committed counts from 0). */
async function uncommitted(connection: KafkaConnection, groupId: string, topic: string): Promise<number> {
  const admin = await connection.connectedAdmin();
  const [ends, [committed]] = await Promise.all([admin.fetchTopicOffsets(connection.topic(topic)), admin.fetchOffsets({ groupId, topics: [connection.topic(topic)] })]);
  const at = new Map(committed.partitions.map((p) => [p.partition, Math.max(0, Number(p.offset))]));
  return ends.reduce((sum, p) => sum + Number(p.high) - (at.get(p.partition) ?? 0), 0);
}
