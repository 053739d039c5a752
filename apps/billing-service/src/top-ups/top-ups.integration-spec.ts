import { newId } from '@parley/contracts';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { pdfText } from '@parley/testing';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

const SECRET_KEY = 'sk_test_billing_spec';
const WEBHOOK_SECRET = 'whsec_billing_spec';

/** Stripe's API as far as Checkout Sessions go: records each request as received and answers a session like Stripe. */
class StripeApiRecorder {
  readonly requests: { path: string; headers: IncomingHttpHeaders; form: URLSearchParams }[] = [];
  private constructor(readonly server: Server) {}

  static async start(): Promise<StripeApiRecorder> {
    const recorder: StripeApiRecorder = new StripeApiRecorder(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
          recorder.requests.push({ path: req.url ?? '', headers: req.headers, form });
          const id = `cs_test_${newId('evt').slice(4)}`;
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.example/c/pay/${id}`, payment_status: 'unpaid', status: 'open' }),
          );
        });
      }),
    );
    await new Promise<void>((resolve) => recorder.server.listen(0, '127.0.0.1', resolve));
    return recorder;
  }

  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Top-ups through a Stripe-compatible API: the Checkout Session request on the wire, and the signed webhook crediting once. */
describe('billing-service: top-ups', () => {
  let billing: BillingServiceUnderTest;
  let stripeApi: StripeApiRecorder;
  const stripe = new Stripe(SECRET_KEY);

  beforeAll(async () => {
    stripeApi = await StripeApiRecorder.start();
    billing = await startBillingService('topups', { STRIPE_API_BASE: stripeApi.base, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  }, 120_000);
  afterAll(async () => {
    await billing?.close();
    await stripeApi?.stop();
  });

  /** A `checkout.session.completed` as Stripe sends it, and its `Stripe-Signature` (signed by the official library). */
  function completedEvent(sessionId: string, amountTotal: number, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify({
      id: `evt_${newId('evt').slice(4)}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session', amount_total: amountTotal, currency: 'usd', payment_status: 'paid', status: 'complete' } },
    });
    return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  it('creates a Checkout Session in Stripe’s wire format and answers where to pay', async () => {
    const tenantId = newId('ten');
    const topUp = await billing.kafka.rpc.request('billing.create-top-up', { tenant_id: tenantId, body: { amount: '20.50' } });
    expect(topUp).toMatchObject({ id: expect.stringMatching(/^top_/), checkout_url: expect.stringMatching(/^https:\/\/checkout\.example\/c\/pay\/cs_test_/), amount: '20.500000', status: 'pending' });

    const request = stripeApi.requests.at(-1)!;
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(request.form)).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2050',
      client_reference_id: topUp.id,
      'metadata[tenant_id]': tenantId,
      'metadata[top_up_id]': topUp.id,
      success_url: expect.stringContaining(`top_up=${topUp.id}`),
    });
  });

  it('refuses an amount given as a number or below 1.00, naming the field', async () => {
    for (const amount of [20 as unknown as string, '0.50', '1.001']) {
      await expect(billing.kafka.rpc.request('billing.create-top-up', { tenant_id: newId('ten'), body: { amount } })).rejects.toMatchObject({
        problem: { status: 400, errors: [expect.objectContaining({ field: 'amount' })] },
      });
    }
  });

  it('credits a paid top-up once, however often its webhook is delivered', async () => {
    const tenantId = newId('ten');
    const topUp = await billing.kafka.rpc.request('billing.create-top-up', { tenant_id: tenantId, body: { amount: '12.00' } });
    const sessionId = topUp.checkout_url.split('/').at(-1)!;
    const event = completedEvent(sessionId, 1200);

    // Stripe redelivers until it gets a 2xx; ten deliveries, some at the same time.
    const answers = await Promise.all(Array.from({ length: 10 }, () => billing.kafka.rpc.request('billing.payment-webhook', event)));
    expect(answers).toEqual(Array(10).fill({ received: true }));
    // A second event about the same session (Stripe may send one per endpoint or after a replay) is no second credit either.
    await billing.kafka.rpc.request('billing.payment-webhook', completedEvent(sessionId, 1200));

    expect(await billing.wallet(tenantId)).toMatchObject({ balance: '12.000000' });
    const ledger = await billing.kafka.rpc.request('billing.transactions', { tenant_id: tenantId, limit: 50, cursor: null });
    expect(ledger.data).toEqual([expect.objectContaining({ type: 'top_up', amount: '12.000000', cause_id: topUp.id })]);
    expect(await billing.ledgerTotals(tenantId)).toMatchObject({ balance: '12.000000', wallet_entries: '12.000000', unbalanced_transactions: 0 });
  });

  it('describes a top-up for a person and gives a paid one a receipt PDF naming its amount, to its tenant only', async () => {
    const tenantId = newId('ten');
    const topUp = await billing.kafka.rpc.request('billing.create-top-up', { tenant_id: tenantId, body: { amount: '30.00' } });
    // Not paid yet: no receipt.
    await expect(billing.kafka.rpc.request('billing.top-up-receipt-pdf', { tenant_id: tenantId, top_up_id: topUp.id })).rejects.toMatchObject({ problem: { status: 404 } });

    const sessionId = topUp.checkout_url.split('/').at(-1)!;
    await billing.kafka.rpc.request('billing.payment-webhook', completedEvent(sessionId, 3000));
    const ledger = await billing.kafka.rpc.request('billing.transactions', { tenant_id: tenantId, limit: 50, cursor: null });
    expect(ledger.data).toEqual([expect.objectContaining({ type: 'top_up', cause_id: topUp.id, description: 'Top-up by card' })]);

    const receipt = await billing.kafka.rpc.request('billing.top-up-receipt-pdf', { tenant_id: tenantId, top_up_id: topUp.id });
    expect(receipt.filename).toBe(`receipt-${topUp.id}.pdf`);
    const pdf = Buffer.from(receipt.pdf_base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Amount received: 30.00 USD');
    expect(text).toContain(topUp.id);
    expect(text).toContain(sessionId);

    // Another tenant asking for it is told it does not exist.
    await expect(billing.kafka.rpc.request('billing.top-up-receipt-pdf', { tenant_id: newId('ten'), top_up_id: topUp.id })).rejects.toMatchObject({ problem: { status: 404 } });
  });

  it('refuses a forged or stale signature with 401 and credits nothing', async () => {
    const tenantId = newId('ten');
    const topUp = await billing.kafka.rpc.request('billing.create-top-up', { tenant_id: tenantId, body: { amount: '5.00' } });
    const sessionId = topUp.checkout_url.split('/').at(-1)!;
    const forged = completedEvent(sessionId, 500, 'whsec_someone_else');
    const tampered = { ...completedEvent(sessionId, 500), payload: completedEvent(sessionId, 50_000).payload };
    const stalePayload = completedEvent(sessionId, 500).payload;
    const stale = { payload: stalePayload, signature: stripe.webhooks.generateTestHeaderString({ payload: stalePayload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 }) };

    for (const attempt of [forged, tampered, stale, { payload: forged.payload, signature: null }]) {
      await expect(billing.kafka.rpc.request('billing.payment-webhook', attempt)).rejects.toMatchObject({ problem: { status: 401 } });
    }
    expect(await billing.wallet(tenantId)).toMatchObject({ balance: '0.000000' });
  });

  it('does not credit a session that is not paid, nor one paying another amount', async () => {
    const tenantId = newId('ten');
    const topUp = await billing.kafka.rpc.request('billing.create-top-up', { tenant_id: tenantId, body: { amount: '7.00' } });
    const sessionId = topUp.checkout_url.split('/').at(-1)!;
    await billing.kafka.rpc.request('billing.payment-webhook', completedEvent(sessionId, 100));
    const unpaidPayload = JSON.stringify({ id: 'evt_unpaid', object: 'event', type: 'checkout.session.completed', data: { object: { id: sessionId, amount_total: 700, payment_status: 'unpaid' } } });
    await billing.kafka.rpc.request('billing.payment-webhook', { payload: unpaidPayload, signature: stripe.webhooks.generateTestHeaderString({ payload: unpaidPayload, secret: WEBHOOK_SECRET }) });
    expect(await billing.wallet(tenantId)).toMatchObject({ balance: '0.000000' });

    await billing.kafka.rpc.request('billing.payment-webhook', completedEvent(sessionId, 700));
    expect(await billing.wallet(tenantId)).toMatchObject({ balance: '7.000000' });
  });
});
