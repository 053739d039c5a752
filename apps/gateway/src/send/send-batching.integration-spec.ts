import { EventPublisher } from '@parley/kafka';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';
import { SendService } from './send.service';

const SENDS = 100;

/** The kafkajs producer inside the publisher, seen only through its instrumentation events (no kafkajs import here). */
interface InstrumentedProducer {
  on(event: 'producer.network.request', listener: (event: { payload: { apiName: string } }) => void): () => void;
}

describe('gateway: concurrent sends share Kafka produce requests (real Kafka)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwbatch');
    account = await gw.signUp();
  });

  afterAll(async () => {
    await gw?.close();
  });

  const sendOverHttp = () =>
    gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550123', message: 'Warm-up' } });

  // Many sends arriving at once, as the controller hands them to the service (HTTP on this shared 2-core machine
  // spreads requests over tens of milliseconds, which would measure the machine's load rather than the batching).
  it(`takes ${SENDS} simultaneous sends with far fewer Kafka produce requests than sends, each one acknowledged`, async () => {
    expect((await sendOverHttp()).status).toBe(200); // the producer is connected and the topic metadata known

    const producer = (gw.app.get(EventPublisher) as unknown as { producer: InstrumentedProducer }).producer;
    let produceRequests = 0;
    const stopCounting = producer.on('producer.network.request', ({ payload }) => {
      if (payload.apiName === 'Produce') produceRequests++;
    });
    const sends = gw.app.get(SendService);
    const results = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => sends.send(account.tenant_id, { channel: 'whatsapp', to: '+14155550123', message: `Order ${i} is ready` }, `req-batch-${i}`)),
    );
    stopCounting();

    expect(results.every((r) => r.status === 'sent')).toBe(true);
    expect(new Set(results.map((r) => r.message_id)).size).toBe(SENDS);
    expect(produceRequests).toBeGreaterThan(0);
    expect(produceRequests).toBeLessThanOrEqual(SENDS / 10);
  });
});
