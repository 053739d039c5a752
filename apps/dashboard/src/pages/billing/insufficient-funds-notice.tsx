import { ErrorNotice } from '../../components/feedback';
import { Link } from '../../router';
import { formatCents } from './money';

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

/**
 * What a failed send says: for a send the wallet could not pay (402), what to do about it and a link to the Billing
 * page; otherwise the server's words. `action` is the form's `useAction()`.
 */
export function SendErrorNotice({ action, what }: { action: { error?: string; refusedStatus?: number }; what: string }) {
  return action.refusedStatus === 402 ? <InsufficientFundsNotice what={what} /> : <ErrorNotice error={action.error} />;
}
