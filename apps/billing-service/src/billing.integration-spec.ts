import { RESERVE_SEND_SCRIPT, Topics, billingPricesKey, billingViewKeys, newId, type EventEnvelope, type WalletLowBalanceData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { Redis } from 'ioredis';
import type { TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from './test/billing-service-under-test';

/** Metering, the price book, charges per message and the wallet's ledger over real Kafka and PostgreSQL. */
describe('billing-service', () => {
  let billing: BillingServiceUnderTest;
  let lowBalance: TopicProbe<EventEnvelope<'wallet.low_balance', WalletLowBalanceData>>;
  const tenant = () => newId('ten');

  beforeAll(async () => {
    // Two free messages a month on `free`; `pro` pays for every message.
    billing = await startBillingService('billing', { BILLING_FREE_ALLOWANCE: '2' });
    lowBalance = await billing.kafka.probe(Topics.WalletLowBalance);
    billing.onClose(() => lowBalance.stop());
  }, 120_000);
  afterAll(() => billing?.close());

  const usageOf = (tenantId: string) =>
    billing.sql.query(`SELECT channel, category, quantity::int AS quantity FROM usage_daily WHERE tenant_id = $1 ORDER BY category`, [tenantId]) as Promise<
      { channel: string; category: string; quantity: number }[]
    >;
  const proTenant = async (topUp: string) => {
    const id = tenant();
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: id, plan: 'pro' });
    if (topUp !== '0') await billing.topUp(id, topUp);
    return id;
  };

  describe('price book', () => {
    it('lists prices as decimal strings with their currency, and an operator changes one line', async () => {
      const before = await billing.kafka.rpc.request('billing.prices', { tenant_id: tenant() });
      expect(before.data).toContainEqual(expect.objectContaining({ plan: 'pro', category: 'marketing', unit_price: '0.040000', currency: 'USD' }));

      const after = await billing.kafka.rpc.request('billing.set-prices', { body: { prices: [{ plan: 'enterprise', category: 'sms', unit_price: '0.0075', currency: 'USD' }] } });
      expect(after.data).toContainEqual(expect.objectContaining({ plan: 'enterprise', category: 'sms', unit_price: '0.007500' }));
      expect(after.data).toContainEqual(expect.objectContaining({ plan: 'pro', category: 'marketing', unit_price: '0.040000' }));
    });

    it('refuses a price given as a JSON number, naming the field', async () => {
      await expect(
        billing.kafka.rpc.request('billing.set-prices', { body: { prices: [{ plan: 'pro', category: 'service', unit_price: 0.05 as unknown as string, currency: 'USD' }] } }),
      ).rejects.toMatchObject({ problem: { status: 400, errors: expect.arrayContaining([expect.objectContaining({ field: 'prices[0].unit_price' })]) } });
    });
  });

  describe('plans', () => {
    it('prices a tenant by the plan the gateway announces', async () => {
      const id = tenant();
      const data = { tenant_id: id, plan: 'enterprise' as const, at: new Date().toISOString() };
      await billing.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.TenantPlanChanged, id, data), id, undefined, { timeoutMs: 10_000 });
      await billing.walletReaching(id, 'the enterprise plan', (w) => w.plan === 'enterprise');
    });
  });

  describe('metering', () => {
    it('counts outbound messages per day, channel and category, once per event however often it is redelivered', async () => {
      const id = await proTenant('1');
      await billing.approveTemplate(id, 'order_ready', 'en_US', 'UTILITY');
      const text = await billing.accept(id);
      await billing.republish(text);
      await billing.accept(id, { content: { type: 'template', template: { name: 'order_ready', language: { code: 'en_US' } } } });
      // A template billing has not heard of is counted (and priced) as marketing.
      await billing.accept(id, { content: { type: 'template', template: { name: 'spring_sale', language: { code: 'en_US' } } } });

      const usage = await pollUntil(async () => {
        const rows = await usageOf(id);
        return rows.reduce((n, r) => n + r.quantity, 0) >= 3 ? rows : undefined;
      }, { description: 'three messages metered', timeoutMs: 20_000 });
      // The redelivery is in the topic before the later sends, so by now it has been consumed too.
      expect(usage).toEqual([
        { channel: 'whatsapp', category: 'marketing', quantity: 1 },
        { channel: 'whatsapp', category: 'service', quantity: 1 },
        { channel: 'whatsapp', category: 'utility', quantity: 1 },
      ]);
    });
  });

  describe('charges', () => {
    it('holds the price when a send is accepted, settles it on sent, releases it on failed, refunds a failure after sent', async () => {
      const id = await proTenant('1.00');
      const settled = await billing.accept(id);
      await billing.walletReaching(id, 'the first hold', (w) => w.balance === '0.996000' && w.held === '0.004000');
      await billing.status(id, settled.data.message_id, 'sent');
      await billing.walletReaching(id, 'the hold settled', (w) => w.balance === '0.996000' && w.held === '0.000000');

      const failed = await billing.accept(id);
      await billing.chargeReaching(failed.data.message_id, 'held');
      await billing.status(id, failed.data.message_id, 'failed');
      await billing.chargeReaching(failed.data.message_id, 'released');

      await billing.status(id, settled.data.message_id, 'failed');
      await billing.chargeReaching(settled.data.message_id, 'refunded');
      expect(await billing.wallet(id)).toMatchObject({ balance: '1.000000', held: '0.000000', currency: 'USD' });

      const page = await billing.kafka.rpc.request('billing.transactions', { tenant_id: id, limit: 10, cursor: null });
      expect(page.data.map((t) => [t.type, t.balance_change, t.cause_id])).toEqual([
        ['refund', '0.004000', settled.data.message_id],
        ['release', '0.004000', failed.data.message_id],
        ['hold', '-0.004000', failed.data.message_id],
        ['settlement', '0.000000', settled.data.message_id],
        ['hold', '-0.004000', settled.data.message_id],
        ['top_up', '1.000000', expect.any(String)],
      ]);
      expect(await billing.ledgerTotals(id)).toEqual({ balance: '1.000000', held: '0.000000', wallet_entries: '1.000000', holds_entries: '0.000000', unbalanced_transactions: 0 });
    });

    it('charges an SMS per segment: 200 GSM-7 characters are 2, and 71 UTF-16 units with an emoji are 2', async () => {
      await billing.kafka.rpc.request('billing.set-prices', { body: { prices: [{ plan: 'pro', category: 'sms', unit_price: '0.0075', currency: 'USD' }] } });
      const id = await proTenant('1');
      const gsm = await billing.accept(id, { channel: 'sms', content: { type: 'text', text: 'a'.repeat(200) } });
      const emoji = await billing.accept(id, { channel: 'sms', content: { type: 'text', text: `${'a'.repeat(69)}😀` } });
      expect(emoji.data.content.type === 'text' && emoji.data.content.text.length).toBe(71);
      await billing.chargeReaching(gsm.data.message_id, 'held');
      await billing.chargeReaching(emoji.data.message_id, 'held');
      const holds = (await billing.kafka.rpc.request('billing.transactions', { tenant_id: id, limit: 10, cursor: null })).data.filter((t) => t.type === 'hold');
      expect(holds.map((t) => [t.cause_id, t.balance_change]).sort()).toEqual(
        [
          [gsm.data.message_id, '-0.015000'],
          [emoji.data.message_id, '-0.015000'],
        ].sort(),
      );
      expect(await usageOf(id)).toEqual([{ channel: 'sms', category: 'sms', quantity: 4 }]);
    });

    it('charges a status that arrives before its send once the send is priced', async () => {
      const id = await proTenant('1');
      const messageId = newId('msg');
      await billing.status(id, messageId, 'sent');
      await billing.chargeReaching(messageId, 'awaiting_send');
      await billing.accept(id, { message_id: messageId });
      await billing.chargeReaching(messageId, 'settled');
      expect(await billing.wallet(id)).toMatchObject({ balance: '0.996000', held: '0.000000' });
    });

    it('sends on free within the monthly allowance cost nothing; beyond it they are paid, and unfunded without a balance', async () => {
      const id = tenant();
      const sends = [];
      for (let i = 0; i < 3; i++) sends.push(await billing.accept(id));
      await billing.chargeReaching(sends[0].data.message_id, 'free');
      await billing.chargeReaching(sends[1].data.message_id, 'free');
      // The third is paid, and an empty wallet cannot hold its price: metered, never overdrawn.
      await billing.chargeReaching(sends[2].data.message_id, 'unfunded');
      expect(await billing.wallet(id)).toMatchObject({ balance: '0.000000', held: '0.000000', plan: 'free' });
      expect(await billing.ledgerTotals(id)).toMatchObject({ wallet_entries: '0.000000' });
    });
  });

  describe('the gateway’s balance view', () => {
    it('publishes prices and each wallet’s spendable balance, and drops a reservation once the message is charged', async () => {
      const redis = new Redis(billing.config.REDIS_URL);
      billing.onClose(async () => void (await redis.quit()));
      const prefix = billing.config.BILLING_VIEW_PREFIX;
      expect(await redis.hget(billingPricesKey(prefix), 'pro:marketing')).toBe('40000');
      expect(await redis.hget(billingPricesKey(prefix), 'free_allowance')).toBe('2');

      const id = await proTenant('0.01');
      const keys = billingViewKeys(prefix, id);
      expect(await redis.hget(keys.view, 'balance')).toBe('10000');
      // The gateway reserves two sends (4000 each) and refuses a third: 10000 − 8000 < 4000.
      const [first, second, third] = [newId('msg'), newId('msg'), newId('msg')];
      const reserve = (messageId: string) => redis.eval(RESERVE_SEND_SCRIPT, 2, keys.view, keys.pending, messageId, '4000', '0', '0');
      expect([await reserve(first), await reserve(second), await reserve(third)]).toEqual([1, 1, 0]);
      expect(await redis.hget(keys.view, 'pending')).toBe('8000');

      await billing.accept(id, { message_id: first });
      await pollUntil(async () => (await redis.hget(keys.view, 'balance')) === '6000' || undefined, { description: 'the hold in the view', timeoutMs: 20_000 });
      expect(await redis.hgetall(keys.pending)).toEqual({ [second]: '4000' });
      expect(await redis.hget(keys.view, 'pending')).toBe('4000');
    });
  });

  describe('wallet', () => {
    it('warns once per crossing of the low-balance threshold', async () => {
      const id = await proTenant('5.05');
      const lowFor = () => lowBalance.messages.filter((m) => m.value.tenant_id === id);
      // Two marketing templates (0.04 each): 5.01, then 4.97 crosses below 5.00.
      const marketing = { content: { type: 'template' as const, template: { name: 'promo', language: { code: 'en' } } } };
      await billing.accept(id, marketing);
      await billing.accept(id, marketing);
      const first = await pollUntil(() => lowFor()[0], { description: 'wallet.low_balance', timeoutMs: 20_000 });
      expect(first.value.data).toMatchObject({ event: 'wallet.low_balance', tenant_id: id, balance: '4.970000', low_balance_threshold: '5.000000', currency: 'USD' });
      expect(first.key).toBe(id);
      expectMatchesEventSchema(Topics.WalletLowBalance, first.value);

      // Still below: no second warning. Back above, then below again: one more.
      const third = await billing.accept(id, marketing);
      await billing.chargeReaching(third.data.message_id, 'held');
      await billing.topUp(id, '0.08');
      await billing.accept(id, marketing);
      await billing.accept(id, marketing);
      await pollUntil(() => lowFor().length >= 2 || undefined, { description: 'a second wallet.low_balance', timeoutMs: 20_000 });
      expect(lowFor().map((m) => m.value.data.balance)).toEqual(['4.970000', '4.970000']);
    });

    it('pages transactions newest first with opaque cursors scoped to the tenant', async () => {
      const id = await proTenant('0');
      for (const ref of ['a', 'b', 'c']) await billing.kafka.rpc.request('billing.adjust', { tenant_id: id, body: { amount: '2.5', reference: ref, description: `goodwill ${ref}` } });
      const first = await billing.kafka.rpc.request('billing.transactions', { tenant_id: id, limit: 2, cursor: null });
      expect(first.data.map((t) => t.cause_id)).toEqual(['c', 'b']);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = await billing.kafka.rpc.request('billing.transactions', { tenant_id: id, limit: 2, cursor: first.next_cursor });
      expect(second).toEqual({ data: [expect.objectContaining({ cause_id: 'a', type: 'adjustment', balance_change: '2.500000', balance_after: '2.500000' })], next_cursor: null });

      const other = tenant();
      expect(await billing.kafka.rpc.request('billing.transactions', { tenant_id: other, limit: 10, cursor: null })).toEqual({ data: [], next_cursor: null });
      await expect(billing.kafka.rpc.request('billing.transactions', { tenant_id: other, limit: 2, cursor: first.next_cursor })).rejects.toMatchObject({
        problem: { status: 400, errors: [{ field: 'cursor' }] },
      });
    });

    it('refuses a debit the balance cannot cover and a reused adjustment reference', async () => {
      const id = await proTenant('1');
      await expect(billing.kafka.rpc.request('billing.adjust', { tenant_id: id, body: { amount: '-1.000001', reference: 'x', description: 'too much' } })).rejects.toMatchObject({
        problem: { status: 409, type: 'https://parley.dev/problems/insufficient-funds' },
      });
      await billing.kafka.rpc.request('billing.adjust', { tenant_id: id, body: { amount: '-1', reference: 'y', description: 'all of it' } });
      await expect(billing.kafka.rpc.request('billing.adjust', { tenant_id: id, body: { amount: '1', reference: 'y', description: 'again' } })).rejects.toMatchObject({
        problem: { status: 409 },
      });
      await expect(billing.kafka.rpc.request('billing.adjust', { tenant_id: id, body: { amount: '1.5e3', reference: 'z', description: 'float' } })).rejects.toMatchObject({
        problem: { status: 400, errors: [expect.objectContaining({ field: 'amount' })] },
      });
      expect(await billing.wallet(id)).toMatchObject({ balance: '0.000000' });
    });
  });
});
