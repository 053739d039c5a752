import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type LlmKeyOwner, type LlmSpendEvent, type LlmUsageData } from '@parley/contracts';
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

  /** An `llm.usage` as responder-service publishes it; without `key`, as it did before the field existed. */
  const usage = (tenantId: string, tokens: number, key?: LlmKeyOwner) => {
    const data: LlmUsageData = {
      tenant_id: tenantId,
      model: 'fake-model',
      prompt_tokens: tokens - 10,
      completion_tokens: 10,
      total_tokens: tokens,
      ...(key ? { key } : {}),
      at: new Date().toISOString(),
    };
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

  it('charges a call on the platform’s key (or an event without `key`) but never one on the tenant’s own key, which still counts towards its LLM budget', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    await billing.topUp(tenant, '1');
    const own = [usage(tenant, 3000, 'tenant'), usage(tenant, 1000, 'tenant')];
    const platform = usage(tenant, 1500, 'platform');
    const legacy = usage(tenant, 500);
    for (const event of [own[0], platform, own[1], legacy]) await billing.republish(event);
    await billing.republish(own[0]);

    // All four calls are metered (6,000 tokens) and all count towards the month's spend: 0.06 at 0.00001 USD a token;
    // only the platform's 2,000 tokens (0.02) were taken from the wallet.
    const month = new Date().toISOString().slice(0, 7);
    await pollUntil(
      async () =>
        ((await billing.sql.query(`SELECT spend::text AS spend FROM llm_spend WHERE tenant_id = $1`, [tenant])) as { spend: string }[])[0]?.spend === '0.060000',
      { description: 'the spend of all four calls' },
    );
    expect(await tokensOf(tenant)).toEqual([{ channel: 'llm', category: 'llm_token', quantity: 6000 }]);
    expect((await billing.wallet(tenant)).balance).toBe('0.980000');
    const totals = await pollUntil(
      () => {
        const mine = spend.messages.filter((m) => m.value.tenant_id === tenant).map((m) => m.value.data);
        return mine.length >= 4 && mine;
      },
      { description: 'four llm.spend events' },
    );
    // One running total per call (the redelivery adds nothing), whatever order the partition's consumer took them in.
    expect(totals).toHaveLength(4);
    expect(totals.every((d) => d.month === month)).toBe(true);
    expect(totals.map((d) => Number(d.spend)).sort((x, y) => x - y).at(-1)).toBe(0.06);

    // The ledger has the top-up and the platform's two calls, nothing for the tenant's own key.
    const { data } = await billing.kafka.rpc.request('billing.transactions', { tenant_id: tenant, limit: 20, cursor: null });
    expect(data.filter((t) => own.some((e) => e.id === t.cause_id))).toEqual([]);
    expect(data.filter((t) => t.cause_id === platform.id).map((t) => [t.type, t.amount]).sort()).toEqual([
      ['hold', '0.015000'],
      ['settlement', '0.015000'],
    ]);
    expect(data.filter((t) => t.cause_id === legacy.id).map((t) => [t.type, t.amount]).sort()).toEqual([
      ['hold', '0.005000'],
      ['settlement', '0.005000'],
    ]);
    // Its own-key calls are free charges, without a price (as a send within the free allowance).
    expect(
      await billing.sql.query(`SELECT state, price, quantity::int AS quantity FROM charges WHERE message_id = ANY($1) ORDER BY quantity`, [own.map((e) => e.id)]),
    ).toEqual([
      { state: 'free', price: null, quantity: 1000 },
      { state: 'free', price: null, quantity: 3000 },
    ]);
    // The invoice's token line counts and prices the platform's tokens only.
    const invoice = await billing.kafka.rpc.request('billing.issue-invoice', { tenant_id: tenant });
    expect(invoice.lines.filter((l) => l.category === 'llm_token')).toEqual([{ category: 'llm_token', quantity: 2000, amount: '0.020000' }]);
    expect(await billing.ledgerTotals(tenant)).toMatchObject({ balance: '0.980000', held: '0.000000', wallet_entries: '0.980000', unbalanced_transactions: 0 });
  });

  it('meters a call on the tenant’s own key while another transaction holds its wallet: it moves no money, so it does not wait for the wallet', async () => {
    const tenant = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenant, plan: 'pro' });
    await billing.topUp(tenant, '1');
    const holder = billing.sql.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT 1 FROM wallets WHERE tenant_id = $1 FOR UPDATE`, [tenant]);
      await billing.republish(usage(tenant, 2000, 'tenant'));
      await pollUntil(async () => (await tokensOf(tenant)).length > 0, { description: 'the own-key call metered while the wallet is held' });
      expect(await tokensOf(tenant)).toEqual([{ channel: 'llm', category: 'llm_token', quantity: 2000 }]);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    expect((await billing.wallet(tenant)).balance).toBe('1.000000');
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
