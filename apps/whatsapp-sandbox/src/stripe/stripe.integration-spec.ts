import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { createTestDatabase, pollUntil, type TestDatabase } from '@parley/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { sandboxAppOptions, whatsappSandboxModule } from '../app.module';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from '../database/whatsapp-sandbox.database';

const SECRET_KEY = 'sk_test_sandbox_spec';
const WEBHOOK_SECRET = 'whsec_sandbox_spec';

/** A webhook endpoint that verifies each delivery with the official library, as billing-service does. */
class WebhookEndpoint {
  readonly events: { event: Stripe.Event | null; answered: number }[] = [];
  /** Answers 500 to this many deliveries first (an endpoint that is down). */
  failFirst = 0;
  private constructor(private readonly server: Server) {}

  static async start(stripe: Stripe): Promise<WebhookEndpoint> {
    const endpoint: WebhookEndpoint = new WebhookEndpoint(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          let event: Stripe.Event | null = null;
          try {
            event = stripe.webhooks.constructEvent(Buffer.concat(chunks).toString('utf8'), String(req.headers['stripe-signature']), WEBHOOK_SECRET);
          } catch {
            event = null;
          }
          const answered = !event ? 400 : endpoint.failFirst-- > 0 ? 500 : 200;
          endpoint.events.push({ event, answered });
          res.writeHead(answered).end();
        });
      }),
    );
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/stripe`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The sandbox's Stripe stand-in, driven by the official `stripe` library as billing-service drives it. */
describe('whatsapp-sandbox: Stripe Checkout stand-in', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let endpoint: WebhookEndpoint;
  let stripe: Stripe;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase('sandboxstripe');
    await runMigrations(db.url, whatsappSandboxDatabase);
    endpoint = await WebhookEndpoint.start(new Stripe(SECRET_KEY));
    const config = loadConfig(WhatsappSandboxConfig, {
      DATABASE_URL: db.url,
      PORT: '0',
      SANDBOX_SMTP_PORT: '0',
      LOG_LEVEL: 'warn',
      SANDBOX_STATUS_CALLBACKS: 'false',
      SANDBOX_STRIPE_SECRET_KEY: SECRET_KEY,
      SANDBOX_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SANDBOX_STRIPE_WEBHOOK_URL: endpoint.url,
      SANDBOX_NOTIFY_RETRY_MS: '100,200,400',
    });
    app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const url = new URL(base);
    stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await app?.close();
    await endpoint?.close();
    await db?.drop();
  });

  const createSession = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Wallet top-up' } } }],
      client_reference_id: 'top_1',
      metadata: { tenant_id: 'ten_1', top_up_id: 'top_1' },
      success_url: 'http://127.0.0.1:3000/dashboard/billing?session={CHECKOUT_SESSION_ID}',
    });

  const eventsOf = (sessionId: string) => endpoint.events.filter((e) => (e.event?.data.object as Stripe.Checkout.Session | undefined)?.id === sessionId);

  it('creates sessions in Stripe’s shape and refuses another secret key as Stripe does', async () => {
    const session = await createSession();
    expect(session).toMatchObject({ id: expect.stringMatching(/^cs_test_/), object: 'checkout.session', amount_total: 2500, currency: 'usd', payment_status: 'unpaid', status: 'open', url: `${base}/c/pay/${session.id}` });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toEqual(session);
    await expect(new Stripe('sk_test_wrong', { host: new URL(base).hostname, port: new URL(base).port, protocol: 'http', maxNetworkRetries: 0 }).checkout.sessions.retrieve(session.id)).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
  });

  it('plays the customer paying on its page: back to the success URL, and one signed checkout.session.completed, retried until taken', async () => {
    const session = await createSession();
    const page = await fetch(session.url!);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toMatch(/<button type="submit">Pay 25\.00 USD<\/button>/);

    endpoint.failFirst = 2;
    const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:3000/dashboard/billing?session=${session.id}`);

    const delivered = await pollUntil(() => (eventsOf(session.id).some((e) => e.answered === 200) ? eventsOf(session.id) : undefined), { description: 'the event taken', timeoutMs: 10_000 });
    expect(delivered.map((e) => e.answered)).toEqual([500, 500, 200]);
    const [{ event }] = delivered;
    expect(event).toMatchObject({ type: 'checkout.session.completed', data: { object: { id: session.id, payment_status: 'paid', status: 'complete', amount_total: 2500, metadata: { top_up_id: 'top_1' } } } });
    // Every attempt is the same event.
    expect(new Set(delivered.map((e) => e.event!.id)).size).toBe(1);

    // Paying again changes nothing: no second event.
    await fetch(session.url!, { method: 'POST', redirect: 'manual' });
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
    const listed = (await (await fetch(`${base}/_sandbox/stripe/events?session_id=${session.id}`)).json()) as { data: { id: string; delivered: boolean; attempts: number }[] };
    expect(listed.data).toEqual([expect.objectContaining({ id: event!.id, delivered: true, attempts: 3 })]);
  });

  it('redelivers an event as often as a test asks', async () => {
    const session = await createSession();
    await fetch(`${base}/_sandbox/stripe/checkout/${session.id}/pay`, { method: 'POST' });
    await pollUntil(() => eventsOf(session.id).length === 1, { description: 'the first delivery', timeoutMs: 10_000 });
    const eventId = eventsOf(session.id)[0].event!.id;

    const redelivered = await fetch(`${base}/_sandbox/stripe/events/${eventId}/redeliver`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ times: 9 }) });
    expect(await redelivered.json()).toEqual({ id: eventId, statuses: Array(9).fill(200) });
    expect(eventsOf(session.id).map((e) => e.event!.id)).toEqual(Array(10).fill(eventId));
  });
});
