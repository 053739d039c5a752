import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { Client } from 'pg';
import { register } from 'prom-client';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

const statements = async () => (await register.getSingleMetric('db_statements_total')!.get()).values[0]?.value ?? 0;
/** A labelled counter of libs/kafka's kafka-metrics.ts, as /metrics shows it. */
const counted = async (name: string, label: string, value: string) =>
  (await register.getSingleMetric(name)!.get()).values.find((v) => v.labels[label] === value)?.value ?? 0;

/** Issue 19: a message's `delivered` and `read` after its `sent` change no charge, and cost no transaction each. */
describe('billing-service skips the statuses that can no longer change a charge', () => {
  let billing: BillingServiceUnderTest;
  // Waiting reads the charges over a connection of its own, so the service's count holds only its own statements.
  let watcher: Client;
  beforeAll(async () => {
    billing = await startBillingService('status-outcomes');
    watcher = new Client({ connectionString: billing.config.DATABASE_URL });
    await watcher.connect();
  }, 120_000);
  afterAll(async () => {
    await watcher?.end();
    await billing?.close();
  });
  const settled = (messageId: string) =>
    pollUntil(async () => (await watcher.query(`SELECT state FROM billing.charges WHERE message_id = $1`, [messageId])).rows[0]?.state === 'settled', {
      description: `charge of ${messageId} settled`,
      timeoutMs: 20_000,
    });

  it('settles each message once; delivered, read and a repeated sent after it cost less than one applied status', async () => {
    const id = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: id, plan: 'pro' });
    await billing.topUp(id, '1.00');
    const [first, second] = [await billing.accept(id), await billing.accept(id)];
    await billing.chargeReaching(first.data.message_id, 'held');
    await billing.chargeReaching(second.data.message_id, 'held');

    let before = await statements();
    await billing.status(id, first.data.message_id, 'sent');
    await settled(first.data.message_id);
    const applied = (await statements()) - before;

    before = await statements();
    for (const s of ['delivered', 'read', 'sent'] as const) await billing.status(id, first.data.message_id, s);
    // Same key (the customer), same partition: once the second message settles, the three before it were consumed.
    await billing.status(id, second.data.message_id, 'sent');
    await settled(second.data.message_id);
    const spent = (await statements()) - before;
    // Each of the three as a transaction of its own would cost about three applied statuses more.
    expect(spent).toBeLessThan(applied * 2);

    expect(await billing.wallet(id)).toMatchObject({ balance: '0.992000', held: '0.000000' });
    const page = await billing.kafka.rpc.request('billing.transactions', { tenant_id: id, limit: 10, cursor: null });
    expect(page.data.filter((t) => t.type === 'settlement').map((t) => t.cause_id).sort()).toEqual([first.data.message_id, second.data.message_id].sort());

    // What it asked of Kafka is counted on /metrics (npm run bench -- cost divides it by the messages): the status
    // records its consumer fetched, and the requests that fetched them and committed their offsets.
    expect(await counted('kafka_records_consumed_total', 'topic', 'message.status')).toBeGreaterThanOrEqual(5);
    expect(await counted('kafka_requests_total', 'api', 'Fetch')).toBeGreaterThan(0);
    expect(await counted('kafka_requests_total', 'api', 'OffsetCommit')).toBeGreaterThan(0);

    // A failure after sent still refunds (it is not a repeat).
    await billing.status(id, first.data.message_id, 'failed');
    await billing.chargeReaching(first.data.message_id, 'refunded');
  });
});
