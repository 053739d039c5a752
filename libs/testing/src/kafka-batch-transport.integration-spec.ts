import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DLQ_SUFFIX, Headers, Topics, type EventEnvelope } from '@parley/contracts';
import { BatchByKey, EventPublisher, KafkaBatchContext, KafkaConnection, KafkaTransport, RpcPassThroughFilter } from '@parley/kafka';
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

@Controller()
class BatchHandlers {
  @EventPattern(Topics.MessageInbound, BatchByKey)
  async handle(@Payload() events: Probe[], @Ctx() ctx: KafkaBatchContext): Promise<void> {
    calls.push({ ids: events.map((e) => e.id), attempt: ctx.attempt, requestIds: ctx.messages.map((m) => m.requestId) });
    if (events.some((e) => e.data.kind === 'hold')) await held;
    if (events.some((e) => e.data.kind === 'slow')) await new Promise((r) => setTimeout(r, 13_000));
    if (events.some((e) => e.data.kind === 'poison')) throw new TypeError('cannot handle this payload');
  }
}

@Module({ controllers: [BatchHandlers] })
class BatchModule {}

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

  it('keeps heartbeating while a handler outlasts the session time-out, so the message is not handed out again', async () => {
    await send('evt_slow', 'slow');
    await send('evt_after_slow', 'fine', 'ten_T:+3');
    await pollUntil(() => callsOf('evt_after_slow').length > 0, { description: 'the message after the slow one', timeoutMs: 40_000 });
    expect(callsOf('evt_slow')).toHaveLength(1);
  }, 60_000);
});
