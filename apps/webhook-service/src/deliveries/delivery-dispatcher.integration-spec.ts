import { newId } from '@parley/contracts';
import { register, type Counter } from 'prom-client';
import { messageReceived } from '../test/events';
import { startWebhookService, type WebhookServiceUnderTest } from '../test/webhook-service-under-test';
import { DeliveriesService } from './deliveries.service';

/** Statements of the dispatcher's kinds this process has sent: its claims (`WITH UPDATE`, as is the batch of recorded successes) and reads of the queue. */
async function queueStatements(): Promise<number> {
  const counter = register.getSingleMetric('db_statements_by_kind_total') as Counter<'kind'> | undefined;
  const values = (await counter?.get())?.values ?? [];
  return values.filter((v) => v.labels.kind === 'WITH UPDATE deliveries' || v.labels.kind === 'WITH SELECT deliveries').reduce((sum, v) => sum + v.value, 0);
}

/**
 * Issue 33: a healthy endpoint's delivery costs the dispatcher one claim (which also tells it when to look next) and
 * its share of a recorded success. It used to cost two claims more that found nothing and two reads of the next due
 * time: one woken by the ingest itself besides its NOTIFY, one by the attempt's end.
 */
describe('DeliveryDispatcher', () => {
  let service: WebhookServiceUnderTest;
  beforeAll(async () => {
    service = await startWebhookService('dispatcher');
  }, 120_000);
  afterAll(() => service?.close());

  it('claims each delivery to a healthy endpoint once, and does not look at the queue again when it succeeded', async () => {
    const tenantId = newId('ten');
    const receiver = await service.receiver();
    const endpoint = await service.createEndpoint(tenantId, { url: receiver.url, events: ['message.received'], ordered: true });
    const deliveries = service.app.get(DeliveriesService);
    const warmUp = messageReceived(tenantId);
    await deliveries.ingest(warmUp);
    await service.deliveryReaching(warmUp.id, endpoint.id, 'succeeded');

    const before = await queueStatements();
    const count = 6;
    for (let i = 0; i < count; i++) {
      const event = messageReceived(tenantId);
      expect(await deliveries.ingest(event)).toBe(1);
      await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
    }
    // one claim and one success record each; one statement to spare for a wake-up the test does not cause (the sweep)
    expect((await queueStatements()) - before).toBeLessThanOrEqual(2 * count + 1);
    expect(receiver.requests).toHaveLength(count + 1);
  });
});
