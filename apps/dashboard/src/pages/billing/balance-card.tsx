import { useState, type FormEvent } from 'react';
import type { MonthUsageRecord, WalletRecord } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { allowanceSentence } from './allowance';
import { formatMoney, isLowBalance } from './money';

/**
 * The wallet's balance, what happens once the free allowance is used (said before it happens), and a top-up: the
 * provider's checkout opens in this tab and comes back to this page.
 */
export function BalanceCard({ wallet, month }: { wallet: WalletRecord; month?: MonthUsageRecord }) {
  const api = useApi();
  const action = useAction();
  const [amount, setAmount] = useState('20.00');

  const topUp = async (event: FormEvent) => {
    event.preventDefault();
    // The gateway checks the amount and names it when it is not a decimal string such as "20.00".
    const checkout = await action.run(() => api.createTopUp(amount.trim()));
    if (checkout) window.location.assign(checkout.checkout_url);
  };

  return (
    <div className="card">
      <dl className="balance">
        <dt id="balance-label">Balance</dt>
        <dd aria-labelledby="balance-label" data-testid="balance">
          <strong>{formatMoney(wallet.balance, wallet.currency)}</strong>
        </dd>
        <dt>Held for messages being sent</dt>
        <dd>{formatMoney(wallet.held, wallet.currency)}</dd>
        <dt>Low-balance warning below</dt>
        <dd>{formatMoney(wallet.low_balance_threshold, wallet.currency)}</dd>
        <dt>Plan</dt>
        <dd>{wallet.plan}</dd>
      </dl>
      {month && (
        <p className={isLowBalance(wallet) ? 'notice notice-warning' : 'notice'} data-testid="allowance">
          {allowanceSentence(month, wallet)}
        </p>
      )}
      <form className="form" onSubmit={(e) => void topUp(e)} aria-label="Top up the wallet">
        <label>
          Amount ({wallet.currency})
          <input inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} {...action.bind('amount')} />
        </label>
        {action.fieldError('amount')}
        <button type="submit" disabled={action.pending}>
          Top up by card
        </button>
      </form>
      <ErrorNotice error={action.error} />
    </div>
  );
}
