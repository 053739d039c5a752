import { pollUntil } from '@parley/testing';
import { createHmac } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// Top-ups and invoices on the built stack (CONTRACT §16, issue 23): a top-up is paid on the sandbox's Stripe checkout
// page in a real Chromium and credits the wallet once, through the gateway's /webhooks/stripe and billing-service,
// however often the sandbox redelivers the event; a forged event is refused; the month's invoice comes as a PDF.

interface Wallet {
  balance: string;
}
interface LedgerPage {
  data: { type: string; amount: string; cause_id: string }[];
}

describe('Billing: top-ups through the Stripe stand-in, and invoices', () => {
  let platform: Platform;
  let browser: Browser;
  let token: string;
  const call = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });
  const balance = async () => (await call<Wallet>('GET', '/api/v1/billing/wallet')).body.balance;

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Porto Books' } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it('credits a top-up paid on the checkout page once, however often the provider redelivers its event', async () => {
    expect(await balance()).toBe('0.000000');
    const topUp = await call<{ id: string; checkout_url: string }>('POST', '/api/v1/billing/top-ups', { amount: '25.00' });
    expect(topUp.status).toBe(201);
    expect(topUp.body.checkout_url.startsWith(`${platform.sandbox}/c/pay/cs_test_`)).toBe(true);

    // The customer pays on the provider's page and comes back to the dashboard's Billing page.
    const { page } = browser;
    await page.goto(topUp.body.checkout_url);
    await page.getByTestId('amount').getByText('25.00 USD').waitFor();
    await expectNoSeriousA11yViolations(page, 'sandbox checkout');
    await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
    await page.waitForURL(`${platform.gateway}/dashboard/billing?top_up=${topUp.body.id}`);

    await pollUntil(async () => (await balance()) === '25.000000', { description: 'the wallet credited', timeoutMs: 30_000, intervalMs: 250 });

    // The provider delivers the same signed event ten more times: every one is taken, none credits again.
    const sessionId = topUp.body.checkout_url.split('/').at(-1)!;
    // (the sandbox records the delivery once the gateway has answered it, a moment after the credit)
    const events = await pollUntil(
      async () => {
        const answer = await http<{ data: { id: string; delivered: boolean }[] }>('GET', `${platform.sandbox}/_sandbox/stripe/events?session_id=${sessionId}`);
        return answer.body.data.every((e) => e.delivered) ? answer.body.data : undefined;
      },
      { description: 'the event recorded as delivered', timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(events).toHaveLength(1);
    const redelivered = await http<{ statuses: number[] }>('POST', `${platform.sandbox}/_sandbox/stripe/events/${events[0].id}/redeliver`, { json: { times: 10 } });
    expect(redelivered.body.statuses).toEqual(Array(10).fill(200));
    expect(await balance()).toBe('25.000000');
    const ledger = await call<LedgerPage>('GET', '/api/v1/billing/transactions');
    expect(ledger.body.data).toEqual([expect.objectContaining({ type: 'top_up', amount: '25.000000', cause_id: topUp.body.id })]);
  });

  it('refuses an event with a forged signature, crediting nothing', async () => {
    const topUp = await call<{ checkout_url: string }>('POST', '/api/v1/billing/top-ups', { amount: '500.00' });
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: topUp.body.checkout_url.split('/').at(-1), object: 'checkout.session', amount_total: 50_000, payment_status: 'paid' } },
    });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', 'whsec_guessed').update(`${t}.${payload}`).digest('hex');
    const forged = await http<{ status: number; type: string }>('POST', `${platform.gateway}/webhooks/stripe`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
      json: JSON.parse(payload),
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('content-type')).toContain('application/problem+json');
    expect(await balance()).toBe('25.000000');
  });

  it('invoices the month so far and serves it as a PDF', async () => {
    const issued = await call<{ id: string; number: number; total: string; payments: string }>('POST', '/api/v1/billing/invoices');
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ id: expect.stringMatching(/^inv_/), number: 1, total: '0.000000', payments: '25.000000' });
    const list = await call<{ data: { id: string }[]; next_cursor: string | null }>('GET', '/api/v1/billing/invoices');
    expect(list.body).toEqual({ data: [expect.objectContaining({ id: issued.body.id })], next_cursor: null });

    const pdf = await fetch(`${platform.gateway}/api/v1/billing/invoices/${issued.body.id}.pdf`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call('GET', '/api/v1/billing/invoices/inv_00000000000000000000000000.pdf')).status).toBe(404);
  });
});
