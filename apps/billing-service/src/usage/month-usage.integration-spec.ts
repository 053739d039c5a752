import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

/** `billing.month-usage`: this month's messages per channel and category against the free allowance (the Usage page). */
describe('billing-service: this month’s usage against the free allowance', () => {
  let billing: BillingServiceUnderTest;

  beforeAll(async () => {
    // Two free messages a month on `free`.
    billing = await startBillingService('month-usage', { BILLING_FREE_ALLOWANCE: '2' });
  }, 120_000);
  afterAll(() => billing?.close());

  const month = (tenantId: string) => billing.kafka.rpc.request('billing.month-usage', { tenant_id: tenantId });

  it('counts a free tenant’s messages of every channel against its allowance, per channel and category, and never another tenant’s', async () => {
    const tenant = newId('ten');
    const stranger = newId('ten');
    const empty = await month(tenant);
    const now = new Date();
    expect(empty).toEqual({
      month: now.toISOString().slice(0, 7),
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      plan: 'free',
      free_allowance: 2,
      messages: 0,
      free_left: 2,
      data: [],
    });

    await billing.accept(tenant);
    await billing.accept(tenant, { channel: 'sms', content: { type: 'text', text: 'Your bike is ready.' } });
    await billing.accept(tenant);
    await billing.accept(stranger);
    const used = await pollUntil(async () => {
      const usage = await month(tenant);
      return usage.messages === 3 && usage;
    }, { description: 'three sends metered' });
    expect(used).toMatchObject({ free_allowance: 2, messages: 3, free_left: 0 });
    expect(used.data).toEqual([
      { channel: 'sms', category: 'sms', quantity: 1 },
      { channel: 'whatsapp', category: 'service', quantity: 2 },
    ]);
  });

  it('has no allowance on a paid plan: every message is paid', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    expect(await month(tenant)).toMatchObject({ plan: 'pro', free_allowance: null, free_left: null, messages: 0 });
  });
});
