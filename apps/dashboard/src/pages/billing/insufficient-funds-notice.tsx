import { ApiError } from '../../api';
import { Link } from '../../router';
import { formatCents } from './money';

/** A paid send (or a campaign's start) the wallet cannot cover: the gateway's `402 insufficient-funds`. */
export const isInsufficientFunds = (err: unknown) => err instanceof ApiError && err.status === 402;

/**
 * Said where a paid send was refused for money, in a person's words: nothing went out, what it would cost, and where
 * to top up. Announced at once to screen readers.
 */
export function InsufficientFundsNotice({ what, cost }: { what: string; cost?: { amount: string; currency: string } | null }) {
  return (
    <div className="notice notice-warning" role="alert" data-testid="insufficient-funds">
      <strong>Your wallet cannot pay for {what}: nothing was sent.</strong>
      {cost && ` It would cost about ${formatCents(cost.amount, cost.currency)}.`} <Link to="/billing">Top up on the Billing page</Link>, then try again.
    </div>
  );
}
