import { useEffect, useState } from 'react';
import { AsyncView } from '../../components/feedback';
import { PageHeader } from '../../components/page-header';
import { useLiveQuery } from '../../components/live-query';
import { useApi } from '../../session/session';
import { MONTH_USAGE_KEY, WALLET_KEY } from './billing-keys';
import { BalanceCard } from './balance-card';
import { InvoicesList } from './invoices-list';
import { LlmSettingsForm } from './llm-settings-form';
import { PriceList } from './price-list';
import { TransactionsTable } from './transactions-table';
import { UsageChart } from './usage-chart';

/** After the provider's checkout the wallet is credited by its webhook, a moment later: look a few times. */
const RETURN_CHECKS = 10;
const RETURN_CHECK_MS = 2000;

/** What the provider's checkout sent the browser back with (`?top_up=top_…`, `&cancelled=1` when abandoned). */
function checkoutReturn(): 'paid' | 'cancelled' | null {
  const query = new URLSearchParams(window.location.search);
  if (!query.get('top_up')) return null;
  return query.get('cancelled') ? 'cancelled' : 'paid';
}

/**
 * Billing (CONTRACT.md §16): the wallet and its top-ups with what happens once the free allowance is used, the prices,
 * usage per day, the ledger with each top-up's receipt, the invoices (and the month so far) and the tenant's own LLM.
 */
export function BillingPage() {
  const api = useApi();
  const wallet = useLiveQuery(WALLET_KEY, () => api.wallet());
  const month = useLiveQuery(MONTH_USAGE_KEY, () => api.monthUsage());
  const prices = useLiveQuery(['billing', 'prices'], () => api.prices());
  const usage = useLiveQuery(['billing', 'usage-by-day', 30], () => api.usageByDay(30));
  const [returned] = useState(checkoutReturn);

  useEffect(() => {
    if (returned !== 'paid') return undefined;
    let checks = 0;
    const timer = window.setInterval(() => {
      wallet.reload();
      if (++checks >= RETURN_CHECKS) window.clearInterval(timer);
    }, RETURN_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [returned, wallet.reload]);

  return (
    <section>
      <PageHeader title="Billing">Your prepaid balance pays for messages, voice minutes and LLM tokens at the prices of your plan, below.</PageHeader>
      {returned === 'paid' && (
        <p className="notice" role="status">
          Thank you: your payment was received. The balance updates as soon as the payment provider confirms it.
        </p>
      )}
      {returned === 'cancelled' && (
        <p className="notice notice-warning" role="status">
          The top-up was cancelled; nothing was charged.
        </p>
      )}
      <h2>Balance</h2>
      <AsyncView state={wallet} what="the wallet">
        {(w) => <BalanceCard wallet={w} month={month.data} />}
      </AsyncView>
      <h2>Prices</h2>
      <AsyncView state={prices} what="the prices">
        {(p) => (wallet.data ? <PriceList prices={p.data} wallet={wallet.data} /> : null)}
      </AsyncView>
      <h2>Usage</h2>
      <AsyncView state={usage} what="usage">
        {(u) => <UsageChart usage={u.data} />}
      </AsyncView>
      <h2>Transactions</h2>
      <TransactionsTable balance={wallet.data?.balance} reloadBalance={wallet.reload} />
      <h2>Invoices</h2>
      <InvoicesList />
      <h2>LLM settings</h2>
      <LlmSettingsForm />
    </section>
  );
}
