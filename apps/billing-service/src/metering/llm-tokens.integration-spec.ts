import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type LlmSpendEvent, type LlmUsageData } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

/** LLM calls metered by tokens and charged at the price book's `llm_token` price (CONTRACT.md §16). */
describe('billing-service: LLM tokens', () => {
  let billing: BillingServiceUnderTest;
  let spend: TopicProbe<LlmSpendEvent>;

  beforeAll(async () => {
    billing = await startBillingService('llm-tokens', { BILLING_FREE_ALLOWANCE: '2' });
    spend = await billing.kafka.probe<LlmSpendEvent>(Topics.LlmSpend);
    await billing.kafka.rpc.request('billing.set-prices', { body: { prices: [{ plan: 'pro', category: 'llm_token', unit_price: '0.00001', currency: 'USD' }] } });
  }, 120_000);
  afterAll(async () => {
    await spend?.stop();
    await billing?.close();
  });

  const usage = (tenantId: string, tokens: number) => {
    const data: LlmUsageData = { tenant_id: tenantId, model: 'fake-model', prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens, at: new Date().toISOString() };
    return EventPublisher.envelope(Topics.LlmUsage, tenantId, data);
  };
  const tokensOf = async (tenantId: string) => {
    const rows = (await billing.sql.query(`SELECT channel, category, quantity::int AS quantity FROM usage_daily WHERE tenant_id = $1`, [tenantId])) as unknown[];
    return rows;
  };

  it('meters each call once however often it is redelivered, and charges its tokens from the wallet', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    await billing.topUp(tenant, '1');
    const first = usage(tenant, 1500);
    await billing.republish(first);
    await billing.republish(first);
    await billing.republish(usage(tenant, 500));

    // 2,000 tokens at 0.00001 USD.
    await billing.walletReaching(tenant, 'two calls charged', (w) => w.balance === '0.980000');
    expect(await tokensOf(tenant)).toEqual([{ channel: 'llm', category: 'llm_token', quantity: 2000 }]);
    const { data } = await billing.kafka.rpc.request('billing.transactions', { tenant_id: tenant, limit: 10, cursor: null });
    expect(data.filter((t) => t.cause_id === first.id).map((t) => [t.type, t.amount])).toEqual(
      expect.arrayContaining([
        ['hold', '0.015000'],
        ['settlement', '0.015000'],
      ]),
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(await billing.kafka.rpc.request('billing.usage', { tenant_id: tenant, days: 30 })).toEqual({ data: [{ day: today, channel: 'llm', category: 'llm_token', quantity: 2000 }] });
    expect(await billing.kafka.rpc.request('billing.usage', { tenant_id: newId('ten'), days: 30 })).toEqual({ data: [] });
    // The month's invoice has a line for them, counting tokens (not calls).
    const invoice = await billing.kafka.rpc.request('billing.issue-invoice', { tenant_id: tenant });
    expect(invoice.lines).toContainEqual({ category: 'llm_token', quantity: 2000, amount: '0.020000' });
    expect(await billing.ledgerTotals(tenant)).toMatchObject({ balance: '0.980000', held: '0.000000', wallet_entries: '0.980000', unbalanced_transactions: 0 });
  });

  it('tells the tenant’s LLM spend of the month as a running total (llm.spend), counting calls the wallet could not pay for too', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    await billing.topUp(tenant, '0.01');
    const totalsOf = (n: number) =>
      pollUntil(
        () => {
          const mine = spend.messages.filter((m) => m.value.tenant_id === tenant);
          return mine.length >= n && mine;
        },
        { description: `${n} llm.spend events` },
      );
    const first = usage(tenant, 700);
    await billing.republish(first);
    await billing.republish(first);
    await totalsOf(1);
    // 1,200 tokens cost 0.012: more than the wallet holds, so not charged, but spent all the same.
    await billing.republish(usage(tenant, 1200));

    const month = new Date().toISOString().slice(0, 7);
    const totals = await totalsOf(2);
    expect(totals.map((m) => [m.key, m.value.data])).toEqual([
      [tenant, { tenant_id: tenant, month, spend: '0.007000', currency: 'USD', at: expect.any(String) }],
      [tenant, { tenant_id: tenant, month, spend: '0.019000', currency: 'USD', at: expect.any(String) }],
    ]);
    for (const m of totals) expectMatchesEventSchema(Topics.LlmSpend, m.value);
    expect((await billing.wallet(tenant)).balance).toBe('0.003000');
    expect(await billing.sql.query(`SELECT to_char(month, 'YYYY-MM') AS month, spend::text AS spend FROM llm_spend WHERE tenant_id = $1`, [tenant])).toEqual([
      { month, spend: '0.019000' },
    ]);
  });

  it('does not count tokens against the free message allowance, and meters a call on a plan without a token price free of charge', async () => {
    const tenant = newId('ten');
    await billing.republish(usage(tenant, 5000));
    await pollUntil(async () => (await tokensOf(tenant)).length > 0, { description: 'tokens metered' });
    expect((await billing.wallet(tenant)).balance).toBe('0.000000');

    // Still two free messages this month: both accepted sends are free.
    const sends = [await billing.accept(tenant), await billing.accept(tenant)];
    for (const send of sends) await billing.chargeReaching(send.data.message_id, 'free');
  });
});
