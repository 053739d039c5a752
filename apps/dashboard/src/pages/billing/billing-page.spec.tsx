import { screen, waitFor, within } from '@testing-library/react';
import { http, type HttpResponseResolver } from 'msw';
import { describe, expect, it } from 'vitest';
import type { TopUpRecord, WalletRecord } from '../../api';
import { ledger, monthUsage, page, prices, usageDays, wallet } from '../../test/fixtures';
import { descriptionOf, renderApp } from '../../test/render-app';
import { json, problem, server } from '../../test/server';

/** Everything the Billing page reads, for a wallet holding `w`; `topUp` answers the top-up form. */
function billingApi(w: WalletRecord, topUp: HttpResponseResolver) {
  server.use(
    http.get('/api/v1/billing/wallet', () => json(w)),
    http.get('/api/v1/billing/usage/month', () => json(monthUsage())),
    http.get('/api/v1/billing/prices', () => json(page(prices()))),
    http.get('/api/v1/billing/usage', () => json({ data: usageDays() })),
    http.get('/api/v1/billing/transactions', () => json(ledger(w.balance))),
    http.get('/api/v1/billing/invoices', () => json(page([]))),
    http.get('/api/v1/settings/llm', () => json({ source: 'platform' })),
    http.post('/api/v1/billing/top-ups', topUp),
  );
}

/** Opens Billing and tops up `amount` (the form starts at 20.00). */
async function topUp(amount: string) {
  const { user } = renderApp('/billing');
  const form = await screen.findByRole('form', { name: 'Top up the wallet' });
  const input = within(form).getByLabelText('Amount (USD)');
  await user.clear(input);
  await user.type(input, amount);
  await user.click(within(form).getByRole('button', { name: 'Top up by card' }));
  return { user, form, input };
}

describe('billing: the wallet and its top-up', () => {
  it('shows the balance the API answers, and what the free allowance leaves', async () => {
    billingApi(wallet({ balance: '12.500000' }), () => problem(500, 'unused'));
    renderApp('/billing');

    expect((await screen.findByTestId('balance')).textContent).toBe('$12.50');
    expect((await screen.findByTestId('allowance')).textContent).toBe(
      '12 of 1,000 free messages used this month; after that each message is paid from your wallet ($12.50: paid messages are refused once it runs out).',
    );
  });

  it('says beside the amount what the API refused about it (400), with nothing sent to checkout', async () => {
    const sent: unknown[] = [];
    billingApi(wallet(), async ({ request }) => {
      sent.push(await request.json());
      return problem(400, 'The request is not valid.', [{ field: 'amount', message: 'amount must be a decimal string such as "20.00" (up to 2 decimals)' }]);
    });

    const { user, input } = await topUp('12.345');

    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(input)).toBe('The amount must be a decimal string such as "20.00" (up to 2 decimals).');
    expect(sent).toEqual([{ amount: '12.345' }]);
    expect(window.location.pathname).toBe('/dashboard/billing');

    // corrected, the field's error goes
    await user.type(input, '{Backspace}');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('says in words when the payment provider cannot be reached (503)', async () => {
    billingApi(wallet(), () => problem(503, 'The payment provider did not answer; try again in a minute.'));

    await topUp('50');

    expect((await screen.findByRole('alert')).textContent).toBe('The payment provider did not answer; try again in a minute.');
    expect(screen.getByRole('button', { name: 'Top up by card' }).hasAttribute('disabled')).toBe(false);
  });

  it('sends the trimmed amount and opens the provider’s checkout', async () => {
    const sent: unknown[] = [];
    // jsdom follows only in-page links: the checkout is an anchor of this page
    const checkout: TopUpRecord = {
      id: 'top_01JD3S4ZC5Q2X8V6N7M9P0R1T2',
      checkout_url: 'http://localhost/dashboard/billing#checkout',
      amount: '50.00',
      currency: 'USD',
      status: 'pending',
      created_at: '2026-03-02T10:00:00.000Z',
    };
    billingApi(wallet(), async ({ request }) => {
      sent.push(await request.json());
      return json(checkout, 201);
    });

    await topUp(' 50.00 ');

    await waitFor(() => expect(window.location.hash).toBe('#checkout'));
    expect(sent).toEqual([{ amount: '50.00' }]);
  });
});
