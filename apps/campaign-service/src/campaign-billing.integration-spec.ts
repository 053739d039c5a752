import { ProblemTypes, amountText, newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
// the real billing-service and crm-service answer (as platform-e2e boots them): stand-ins would only echo this spec's guesses
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startBillingService, type BillingServiceUnderTest } from '../../billing-service/src/test/billing-service-under-test';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startCrmService, type CrmServiceUnderTest } from '../../crm-service/src/test/crm-service-under-test';
import { startCampaignService, type CampaignServiceUnderTest } from './test/campaign-service-under-test';

/** A campaign asks billing-service for its cost before it starts (CONTRACT.md §15, §16), and a wallet that cannot pay refuses it. */
let campaigns: CampaignServiceUnderTest;
let crm: CrmServiceUnderTest;
let billing: BillingServiceUnderTest;

beforeAll(async () => {
  campaigns = await startCampaignService('cpgbill', { CAMPAIGN_BILLING_ESTIMATE: 'true', BILLING_ENFORCED: 'true' });
  const namespace = { KAFKA_TOPIC_PREFIX: campaigns.config.KAFKA_TOPIC_PREFIX };
  crm = await startCrmService('cpgbill-crm', namespace);
  billing = await startBillingService('cpgbill-billing', namespace);
}, 180_000);

afterAll(async () => {
  await billing?.close();
  await crm?.close();
  await campaigns?.close();
});

let phoneSeq = 0;
const phone = () => `+1415556${String(1000 + phoneSeq++).padStart(4, '0')}`;
const template = { name: 'autumn_offer', language: 'en' };

/** A `pro` tenant (every send paid) with `balance` in its wallet and `size` contacts tagged `vip`. */
async function proTenant(balance: string, size: number): Promise<string> {
  const tenant = newId('ten');
  await campaigns.call('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
  await billing.topUp(tenant, balance);
  for (let i = 0; i < size; i++) await campaigns.call('contacts.create', { tenant_id: tenant, body: { phone: phone(), tags: ['vip'] } });
  return tenant;
}

async function priceOf(category: string): Promise<number> {
  const { data } = await campaigns.call('billing.prices', { tenant_id: newId('ten') });
  return Number(data.find((p) => p.plan === 'pro' && p.category === category)!.unit_price);
}

describe('campaign cost estimate (CONTRACT.md §15, §16)', () => {
  it('starts a campaign the wallet can pay for, with the estimate (recipients × the template category’s price) on the campaign', async () => {
    const tenant = await proTenant('10.00', 3);
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Autumn', template, audience: { tags: ['vip'] } } });
    expect(draft.estimate).toBeNull();

    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(started.status).toBe('running');
    // a template billing has not seen approved is priced as marketing, the dearest
    const expected = (3 * (await priceOf('marketing'))).toFixed(6);
    expect(started.estimate).toEqual({ amount: expected, currency: 'USD' });
    expect((await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id })).estimate).toEqual({ amount: expected, currency: 'USD' });
  });

  it('prices by the category billing knows for the template', async () => {
    const tenant = await proTenant('10.00', 2);
    // the category metering recorded from the template's approval (template.status; its consumer is billing's own spec's to cover)
    await billing.sql.query(`INSERT INTO template_categories (tenant_id, name, language, category) VALUES ($1, 'order_update', 'en', 'utility')`, [tenant]);
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Orders', template: { name: 'order_update', language: 'en' }, audience: { tags: ['vip'] } } });
    const expected = (2 * (await priceOf('utility'))).toFixed(6);
    expect(expected).not.toBe((2 * (await priceOf('marketing'))).toFixed(6));
    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(started.estimate).toEqual({ amount: expected, currency: 'USD' });
  });

  it('refuses to start a campaign the wallet cannot pay for with 402 insufficient-funds, sends nothing and shows the estimate', async () => {
    const unit = await priceOf('marketing');
    const tenant = await proTenant(((3 * unit) - 0.01).toFixed(2), 3);
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Too dear', template, audience: { tags: ['vip'] } } });

    const refusal = await campaigns.problemOf('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(refusal).toMatchObject({ status: 402, type: ProblemTypes.insufficientFunds });
    // the estimate in words people read: cents, not the ledger's six decimals
    expect(refusal.detail).toContain(`(${amountText((3 * unit).toFixed(6))} USD)`);
    expect(refusal.detail).not.toMatch(/\.\d{2}\d*0 USD/);

    const after = await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id });
    expect(after.status).toBe('draft');
    expect(after.estimate).toEqual({ amount: (3 * unit).toFixed(6), currency: 'USD' });
    expect(after.counts.audience).toBe(0);
    const recipients = await campaigns.call('campaigns.recipients', { tenant_id: tenant, id: draft.id, limit: 10, cursor: null });
    expect(recipients.data).toEqual([]);

    // topped up, the same campaign starts
    await billing.topUp(tenant, '1.00');
    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(started).toMatchObject({ status: 'running', counts: expect.objectContaining({ audience: 3 }) });
  });

  it('returns a scheduled campaign the wallet cannot pay for to draft, with the reason and the estimate', async () => {
    const unit = await priceOf('marketing');
    const tenant = await proTenant((2 * unit - 0.01).toFixed(2), 2);
    const scheduled = await campaigns.call('campaigns.create', {
      tenant_id: tenant,
      body: { name: 'Due now', template, audience: { tags: ['vip'] }, schedule_at: new Date(Date.now() + 300).toISOString() },
    });
    expect(scheduled.status).toBe('scheduled');
    const refused = await pollUntil(async () => {
      const current = await campaigns.call('campaigns.get', { tenant_id: tenant, id: scheduled.id });
      return current.status === 'draft' && current;
    }, { description: 'the scheduled start refused' });
    expect(refused.status_reason).toMatch(/^scheduled start refused: .*estimated cost/);
    expect(refused.estimate).toEqual({ amount: (2 * unit).toFixed(6), currency: 'USD' });
    expect(refused.counts.audience).toBe(0);
  });
});
