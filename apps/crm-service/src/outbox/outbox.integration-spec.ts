import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { enqueueEvents } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { startCrmService, type CrmServiceUnderTest } from '../test/crm-service-under-test';

describe('crm-service: the outbox', () => {
  let crm: CrmServiceUnderTest;

  beforeAll(async () => {
    crm = await startCrmService('crmoutbox');
  });

  afterAll(async () => {
    await crm?.close();
  });

  it('answers its health check and publishes what a committed transaction queued, in order, then forgets it', async () => {
    expect((await fetch(`${await crm.app.getUrl()}/health`)).status).toBe(200);
    const probe = await crm.kafka.probe<{ id: string }>('contact.updated');
    const envelopes = [1, 2, 3].map((n) => EventPublisher.envelope('contact.updated', 'ten_X', { n }));
    await crm.sql.transaction((tx) => enqueueEvents(tx, envelopes.map((envelope) => ({ envelope, key: 'ten_X:ctc_1' }))));
    // a rolled-back transaction queues nothing
    await crm.sql
      .transaction(async (tx) => {
        await enqueueEvents(tx, [{ envelope: EventPublisher.envelope('contact.updated', 'ten_X', { n: 4 }), key: 'ten_X:ctc_1' }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    crm.app.get(OutboxRelay).wake();
    await pollUntil(async () => (probe.messages.length >= 3 ? true : undefined), { description: 'three events published', timeoutMs: 15_000 });
    expect(probe.messages.map((m) => m.value.id)).toEqual(envelopes.map((e) => e.id));
    await pollUntil(async () => ((await crm.sql.query(`SELECT count(*)::int AS n FROM outbox`))[0].n === 0 ? true : undefined), { description: 'outbox emptied' });
    await probe.stop();
  });
});
