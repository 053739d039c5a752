import { Logger } from '@nestjs/common';
import { ProblemException } from '@parley/service-kit';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import type { BillingServiceConfig } from '../config/billing-service.config';
import { WALLET_CONFIG, walletsInMemory } from '../test/in-memory-wallets';
import type { CheckoutRequest, PaymentProvider } from './payment-provider';
import { TopUpsService } from './top-ups.service';
import type { TopUpRow, TopUpsStore } from './top-ups.store';

/** TopUpsStore's contract in memory for what TopUpsService decides on (its SQL runs in top-ups.integration-spec). */
class InMemoryTopUps implements Pick<TopUpsStore, 'insert' | 'attachSession' | 'findPaid' | 'findBySession' | 'markPaid'> {
  readonly rows = new Map<string, TopUpRow>();

  async insert(tenantId: string, topUp: { id: string; amount: string; currency: string }): Promise<void> {
    this.rows.set(topUp.id, {
      id: topUp.id,
      tenant_id: tenantId,
      amount: topUp.amount,
      currency: topUp.currency,
      session_id: null,
      checkout_url: null,
      status: 'pending',
      paid_by_event: null,
      paid_at: null,
      created_at: new Date(),
    });
  }

  async attachSession(tenantId: string, id: string, session: { id: string; url: string | null }): Promise<TopUpRow> {
    const row = this.rows.get(id)!;
    if (row.tenant_id === tenantId) Object.assign(row, { session_id: session.id, checkout_url: session.url });
    return { ...row };
  }

  async findPaid(tenantId: string, id: string): Promise<TopUpRow | null> {
    const row = this.rows.get(id);
    return row?.tenant_id === tenantId && row.status === 'paid' ? { ...row } : null;
  }

  async findBySession(sessionId: string): Promise<TopUpRow | null> {
    const row = [...this.rows.values()].find((r) => r.session_id === sessionId);
    return row ? { ...row } : null;
  }

  async markPaid(tenantId: string, id: string, eventId: string, _tx: EntityManager): Promise<void> {
    const row = this.rows.get(id);
    if (row?.tenant_id === tenantId) Object.assign(row, { status: 'paid', paid_by_event: eventId, paid_at: new Date() });
  }
}

const SIGNED = 't=1,v1=valid';

/** The provider's side: sessions named by top-up, and webhooks whose signature is SIGNED. */
function providerFake() {
  const provider = {
    checkouts: [] as CheckoutRequest[],
    fail: false,
    async createCheckout(req: CheckoutRequest): Promise<Stripe.Checkout.Session> {
      provider.checkouts.push(req);
      if (provider.fail) throw new Error('connect ECONNREFUSED');
      return { id: `cs_${req.topUpId}`, url: `https://checkout.example/${req.topUpId}` } as Stripe.Checkout.Session;
    },
    verifiedEvent(payload: string, signature: string): Stripe.Event {
      if (signature !== SIGNED) throw new Error('No signatures found matching the expected signature for payload');
      return JSON.parse(payload) as Stripe.Event;
    },
  };
  return provider;
}

function setup(config: Partial<BillingServiceConfig> = {}) {
  const fullConfig = { ...WALLET_CONFIG, GATEWAY_URL: 'http://gateway.test', ...config } as BillingServiceConfig;
  const { wallets, store: ledger, view } = walletsInMemory(fullConfig);
  const store = new InMemoryTopUps();
  const provider = providerFake();
  const topUps = new TopUpsService(store as unknown as TopUpsStore, fullConfig, provider as unknown as PaymentProvider, wallets, view);
  return { topUps, store, provider, ledger, wallets, view };
}

/** A `checkout.session.completed` webhook body for a session. */
const completed = (eventId: string, sessionId: string, amountTotal: number | null, paymentStatus = 'paid') =>
  JSON.stringify({ id: eventId, type: 'checkout.session.completed', data: { object: { id: sessionId, payment_status: paymentStatus, amount_total: amountTotal } } });

const problemOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem : err;
};

describe('TopUpsService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('refuses a top-up under 1.00 with 400 naming amount, before recording it or asking the provider', async () => {
    const { topUps, store, provider } = setup();
    expect(await problemOf(topUps.create('ten_a', { amount: '0.99' }))).toMatchObject({ status: 400, errors: [{ field: 'amount' }] });
    expect(store.rows.size).toBe(0);
    expect(provider.checkouts).toEqual([]);
  });

  it("refuses an amount finer than the wallet currency's unit with 400 naming amount", async () => {
    const { topUps, store, provider } = setup({ BILLING_CURRENCY: 'JPY' });
    expect(await problemOf(topUps.create('ten_a', { amount: '1000.50' }))).toMatchObject({ status: 400, errors: [{ field: 'amount' }] });
    expect(store.rows.size).toBe(0);
    expect(provider.checkouts).toEqual([]);
  });

  it('records the top-up before the provider is asked, so a session the provider made is ours; 503 when it cannot be reached', async () => {
    const { topUps, store, provider } = setup();
    provider.fail = true;
    expect(await problemOf(topUps.create('ten_a', { amount: '20.00' }))).toMatchObject({ status: 503 });
    const [asked] = provider.checkouts;
    expect(store.rows.get(asked.topUpId)).toMatchObject({ tenant_id: 'ten_a', amount: '20.00', currency: 'USD', status: 'pending', session_id: null });

    provider.fail = false;
    const created = await topUps.create('ten_a', { amount: '20.00' });
    expect(created).toMatchObject({ amount: '20.00', currency: 'USD', status: 'pending', checkout_url: `https://checkout.example/${created.id}` });
    expect(provider.checkouts[1]).toMatchObject({ topUpId: created.id, tenantId: 'ten_a', successUrl: `http://gateway.test/dashboard/billing?top_up=${created.id}` });
  });

  it('credits a paid session once however often its webhook is delivered; the top-up is paid by the first event', async () => {
    const { topUps, store, wallets, ledger, view } = setup();
    const { id } = await topUps.create('ten_a', { amount: '20.00' });
    expect(await topUps.handleWebhook(completed('evt_1', `cs_${id}`, 2000), SIGNED)).toEqual({ received: true });
    expect(await topUps.handleWebhook(completed('evt_2', `cs_${id}`, 2000), SIGNED)).toEqual({ received: true });
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '20.000000' });
    expect(ledger.transactionRows.map((t) => [t.kind, t.cause_id])).toEqual([['top_up', id]]);
    expect(store.rows.get(id)).toMatchObject({ status: 'paid', paid_by_event: 'evt_1' });
    expect(view.push).toHaveBeenCalledTimes(1);
  });

  it('credits nothing for a session paid with another amount, an unpaid one, or one that is no top-up of ours', async () => {
    const { topUps, store, wallets } = setup();
    const { id } = await topUps.create('ten_a', { amount: '20.00' });
    await topUps.handleWebhook(completed('evt_1', `cs_${id}`, 1999), SIGNED);
    await topUps.handleWebhook(completed('evt_2', `cs_${id}`, 2000, 'unpaid'), SIGNED);
    await topUps.handleWebhook(completed('evt_3', 'cs_unknown', 2000), SIGNED);
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '0.000000' });
    expect(store.rows.get(id)).toMatchObject({ status: 'pending', paid_by_event: null });
  });

  it('refuses a webhook its signature does not sign with 401, crediting nothing', async () => {
    const { topUps, store, wallets } = setup();
    const { id } = await topUps.create('ten_a', { amount: '20.00' });
    expect(await problemOf(topUps.handleWebhook(completed('evt_1', `cs_${id}`, 2000), 't=1,v1=forged'))).toMatchObject({ status: 401 });
    expect(await problemOf(topUps.handleWebhook(completed('evt_1', `cs_${id}`, 2000), null))).toMatchObject({ status: 401 });
    expect(await wallets.get('ten_a')).toMatchObject({ balance: '0.000000' });
    expect(store.rows.get(id)?.status).toBe('pending');
  });

  it("has a receipt only for the tenant's own paid top-up: 404 while pending and for another tenant", async () => {
    const { topUps } = setup();
    const { id } = await topUps.create('ten_a', { amount: '20.00' });
    expect(await problemOf(topUps.receipt('ten_a', id))).toMatchObject({ status: 404 });
    await topUps.handleWebhook(completed('evt_1', `cs_${id}`, 2000), SIGNED);
    expect(await problemOf(topUps.receipt('ten_b', id))).toMatchObject({ status: 404 });
    expect(await topUps.receipt('ten_a', id)).toMatchObject({ filename: `receipt-${id}.pdf` });
  });
});
