import { type EventEnvelope } from '@parley/contracts';
import { EventPublisher, KafkaConnection } from '@parley/kafka';
import { testInfra, uniqueKafkaNamespace } from './infra';

/** The kafkajs producer inside the publisher, seen only through its instrumentation events (no kafkajs import here). */
interface InstrumentedProducer {
  on(event: 'producer.network.request', listener: (event: { payload: { apiName: string } }) => void): () => void;
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EventPublisher: how long a publish waits for company (real broker)', () => {
  let connection: KafkaConnection;
  let publisher: EventPublisher;
  let produceRequests = 0;

  const envelope = (id: string): EventEnvelope =>
    ({ id, type: 'message.inbound', version: 1, tenant_id: 'ten_T', occurred_at: new Date().toISOString(), data: { kind: 'fine' } }) as EventEnvelope;
  const counted = async (work: () => Promise<unknown>): Promise<number> => {
    const before = produceRequests;
    await work();
    return produceRequests - before;
  };

  beforeAll(async () => {
    // No linger by default: only a publish's own lingerMs makes it wait.
    connection = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'publisher-test', namespace: uniqueKafkaNamespace('publisher') });
    publisher = new EventPublisher(connection);
    (publisher as unknown as { producer: InstrumentedProducer }).producer.on('producer.network.request', ({ payload }) => {
      if (payload.apiName === 'Produce') produceRequests++;
    });
    await publisher.publishEvent(envelope('evt_warm'), 'k'); // connected, topic metadata known
  });

  afterAll(async () => {
    await publisher?.onApplicationShutdown();
    await connection?.onApplicationShutdown();
  });

  it('without a linger, publishes of separate ticks go in separate produce requests', async () => {
    const requests = await counted(async () => {
      const acks: Promise<void>[] = [];
      for (let i = 0; i < 10; i++) {
        acks.push(publisher.publishEvent(envelope(`evt_eager_${i}`), 'k'));
        await nextTick();
      }
      await Promise.all(acks);
    });
    expect(requests).toBeGreaterThanOrEqual(5);
  });

  it('publishes that may linger share a produce request across ticks', async () => {
    const requests = await counted(async () => {
      const acks: Promise<void>[] = [];
      for (let i = 0; i < 10; i++) {
        acks.push(publisher.publishEvent(envelope(`evt_patient_${i}`), 'k', undefined, { lingerMs: 1_000 }));
        await nextTick();
      }
      await Promise.all(acks);
    });
    expect(requests).toBeLessThanOrEqual(2);
  });

  it('an impatient publish does not wait for a patient one: it takes it along at once', async () => {
    // Were the flush left at the patient publish's time, this test would outlast jest's time-out.
    const requests = await counted(async () => {
      const patient = publisher.publishEvent(envelope('evt_patient_long'), 'k', undefined, { lingerMs: 600_000 });
      await nextTick();
      await Promise.all([patient, publisher.publishEvent(envelope('evt_impatient'), 'k')]);
    });
    expect(requests).toBe(1);
  });
});
