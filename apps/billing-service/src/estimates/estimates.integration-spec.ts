import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

/** `billing.estimate`: what a number of sends would cost a tenant now (a campaign asks before it starts). */
describe('billing-service cost estimates', () => {
  let billing: BillingServiceUnderTest;

  beforeAll(async () => {
    // Two free messages a month on `free`.
    billing = await startBillingService('estimates', { BILLING_FREE_ALLOWANCE: '2' });
  }, 120_000);
  afterAll(() => billing?.close());

  const estimate = (tenantId: string, quantity: number, template: { name: string; language: string } | null = { name: 'offer', language: 'en' }) =>
    billing.kafka.rpc.request('billing.estimate', { tenant_id: tenantId, channel: 'whatsapp', template, quantity });
  const price = async (plan: string, category: string) => {
    const { data } = await billing.kafka.rpc.request('billing.prices', { tenant_id: newId('ten') });
    return Number(data.find((p) => p.plan === plan && p.category === category)!.unit_price);
  };

  it('takes what is left of the free allowance off, prices the rest by the template category, and says whether the wallet covers it', async () => {
    const tenant = newId('ten');
    await billing.accept(tenant);
    await pollUntil(async () => {
      const [row] = (await billing.sql.query(`SELECT quantity::int AS q FROM usage_daily WHERE tenant_id = $1`, [tenant])) as { q: number }[];
      return row?.q === 1;
    }, { description: 'the first send metered' });

    // one free message left of two: four of five are paid, at the free plan's marketing price (an unknown template)
    const unit = await price('free', 'marketing');
    const unfunded = await estimate(tenant, 5);
    expect(unfunded).toMatchObject({ quantity: 5, billable: 4, category: 'marketing', amount: (4 * unit).toFixed(6), currency: 'USD', balance: '0.000000' });
    expect(unit).toBeGreaterThan(0);
    expect(unfunded.payable).toBe(false);

    await billing.topUp(tenant, '100.00');
    expect(await estimate(tenant, 5)).toMatchObject({ billable: 4, payable: true, balance: '100.000000' });
    // within the allowance nothing is paid
    expect(await estimate(tenant, 1)).toMatchObject({ billable: 0, amount: '0.000000', payable: true });
  });

  it('prices a pro tenant’s every send, free-form ones as service', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    expect(await estimate(tenant, 3, null)).toMatchObject({ billable: 3, category: 'service', amount: (3 * (await price('pro', 'service'))).toFixed(6), payable: false });
  });

  it('refuses a quantity that is not a whole number from 0, naming it', async () => {
    await expect(estimate(newId('ten'), -1)).rejects.toMatchObject({ problem: { status: 400, errors: [expect.objectContaining({ field: 'quantity' })] } });
    await expect(estimate(newId('ten'), 1.5)).rejects.toMatchObject({ problem: { status: 400 } });
  });
});
