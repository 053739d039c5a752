import { pollUntil } from '@parley/testing';
import { http } from './http';
import type { Platform } from './platform';

/**
 * Funds a tenant's wallet the way its owner does (CONTRACT §16): a top-up, paid on the provider's checkout (the
 * sandbox's Stripe stand-in plays the customer paying), credited once the provider's webhook reached billing-service.
 * For tests whose sends go beyond the free allowance, now that a send the wallet cannot cover is refused (§20).
 */
export async function topUpWallet(platform: Platform, token: string, amount: string): Promise<void> {
  const before = Number((await http<{ balance: string }>('GET', `${platform.gateway}/api/v1/billing/wallet`, { token })).body.balance);
  const topUp = await http<{ checkout_url: string }>('POST', `${platform.gateway}/api/v1/billing/top-ups`, { token, json: { amount } });
  if (topUp.status !== 201) throw new Error(`the top-up was refused: ${topUp.status} ${topUp.text}`);
  const session = topUp.body.checkout_url.split('/').at(-1);
  const paid = await http('POST', `${platform.sandbox}/_sandbox/stripe/checkout/${session}/pay`);
  if (paid.status !== 200) throw new Error(`the checkout was not paid: ${paid.status} ${paid.text}`);
  await pollUntil(async () => Number((await http<{ balance: string }>('GET', `${platform.gateway}/api/v1/billing/wallet`, { token })).body.balance) >= before + Number(amount), {
    timeoutMs: 30_000,
    intervalMs: 250,
    description: `the wallet credited with the top-up of ${amount}`,
  });
}
