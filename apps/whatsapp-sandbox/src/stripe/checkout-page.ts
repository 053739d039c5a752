import type { CheckoutSession } from './checkout-sessions.service';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const major = (minor: number, currency: string) => (ZERO_DECIMAL.has(currency) ? String(minor) : (minor / 100).toFixed(2));

/** The sandbox's hosted checkout: the amount and one Pay button (no card details: the sandbox plays a payment that succeeds). */
export function checkoutPage(session: CheckoutSession): string {
  const amount = `${major(session.amount_total, session.currency)} ${session.currency.toUpperCase()}`;
  const body =
    session.status === 'complete'
      ? `<p role="status">Paid. Thank you!</p><p><a href="${escapeHtml(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id))}">Back to the merchant</a></p>`
      : `<form method="post" action="/c/pay/${escapeHtml(session.id)}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
         ${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout (sandbox)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.4rem}</style></head>
<body>
<h1>Parley sandbox checkout</h1>
<p>Stripe test mode, played locally. Session <code>${escapeHtml(session.id)}</code>.</p>
<p>Amount due: <strong data-testid="amount">${escapeHtml(amount)}</strong></p>
${body}
</body>
</html>`;
}
