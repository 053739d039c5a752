import type { WalletRecord } from '../../api';
import { Link } from '../../router';
import { useLiveQuery } from '../../components/live-query';
import { useApi } from '../../session/session';
import { WALLET_KEY } from './billing-keys';
import { formatMoney, isLowBalance, isZero } from './money';

/** What the low balance means for sends, as the gateway enforces it (`enforced`), never more nor less. */
function consequence(w: WalletRecord): string {
  if (w.enforced === false) return 'Top up to keep paying for your messages.';
  const paid = w.plan === 'free' ? 'Messages beyond your free monthly allowance are paid from it' : 'Every message is paid from it';
  return isZero(w.balance) ? `${paid}, and paid messages are refused until you top up.` : `${paid}; once it cannot cover one, that message is refused.`;
}

/**
 * Across the dashboard, for those who may manage billing: the balance is below the wallet's low-balance threshold.
 * Read when the dashboard opens (and by the Billing page itself after a top-up); says nothing when the wallet cannot
 * be read.
 */
export function LowBalanceBanner() {
  const api = useApi();
  const wallet = useLiveQuery(WALLET_KEY, () => api.wallet());
  const w = wallet.data;
  if (!w || !isLowBalance(w)) return null;
  return (
    <div className="notice notice-warning" role="region" aria-label="Low balance">
      Your balance is {formatMoney(w.balance, w.currency)}, below {formatMoney(w.low_balance_threshold, w.currency)}. {consequence(w)}{' '}
      <Link to="/billing">Top up on the Billing page</Link>
    </div>
  );
}
