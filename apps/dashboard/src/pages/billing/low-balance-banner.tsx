import { Link } from '../../router';
import { useAsync } from '../../components/use-async';
import { useApi } from '../../session/session';
import { formatMoney, isLowBalance } from './money';

/**
 * Across the dashboard, for those who may manage billing: the balance is below the wallet's low-balance threshold.
 * Read when the dashboard opens (and by the Billing page itself after a top-up); says nothing when the wallet cannot
 * be read.
 */
export function LowBalanceBanner() {
  const api = useApi();
  const wallet = useAsync(() => api.wallet(), 'low-balance-wallet');
  const w = wallet.data;
  if (!w || !isLowBalance(w)) return null;
  return (
    <div className="notice notice-warning" role="region" aria-label="Low balance">
      Your balance is {formatMoney(w.balance, w.currency)}, below {formatMoney(w.low_balance_threshold, w.currency)}: paid messages stop when it runs out.{' '}
      <Link to="/billing">Top up on the Billing page</Link>
    </div>
  );
}
