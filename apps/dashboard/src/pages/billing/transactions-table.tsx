import { useEffect, useRef, useState } from 'react';
import { AsyncView } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useAsync } from '../../components/use-async';
import { useApi } from '../../session/session';
import { formatMoney } from './money';

const TYPES: Record<string, string> = { top_up: 'Top-up', hold: 'Held', settlement: 'Charged', release: 'Released', refund: 'Refund', adjustment: 'Adjustment' };

/**
 * The wallet's ledger, newest first, a page at a time (the cursors of the pages seen, to go back). Loaded again, quietly,
 * when the balance shown above changes (a top-up's webhook credits it after the page has loaded).
 */
export function TransactionsTable({ balance }: { balance?: string }) {
  const api = useApi();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const page = useAsync(() => api.transactions(cursor), `transactions:${cursor ?? ''}`);
  const seenBalance = useRef(balance);
  useEffect(() => {
    if (balance === seenBalance.current) return;
    const first = seenBalance.current === undefined;
    seenBalance.current = balance;
    if (!first) page.reload();
  }, [balance, page.reload]);
  return (
    <AsyncView state={page} what="transactions" isEmpty={(p) => p.data.length === 0 && cursors.length === 1} empty="No transactions yet.">
      {(p) => (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Transactions</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                  <th scope="col">Change</th>
                  <th scope="col">Balance after</th>
                </tr>
              </thead>
              <tbody>
                {p.data.map((t) => (
                  <tr key={t.id}>
                    <td>{formatTime(t.created_at)}</td>
                    <td>{TYPES[t.type] ?? t.type}</td>
                    <td>{t.description ?? <code>{t.cause_id}</code>}</td>
                    <td>{t.balance_change.startsWith('-') ? `−${formatMoney(t.balance_change.slice(1), t.currency)}` : formatMoney(t.balance_change, t.currency)}</td>
                    <td>{formatMoney(t.balance_after, t.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="row wrap">
            <button type="button" className="secondary button-small" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </button>
            <button type="button" className="secondary button-small" disabled={!p.next_cursor} onClick={() => p.next_cursor && setCursors((c) => [...c, p.next_cursor])}>
              Older
            </button>
          </div>
        </>
      )}
    </AsyncView>
  );
}
