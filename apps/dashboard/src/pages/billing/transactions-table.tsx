import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';
import type { LedgerTransactionPage, LedgerTransactionRecord } from '../../api/billing';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { type AsyncState, useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { downloadBlob } from './download';
import { useLedgerInStep } from './ledger-in-step';
import { formatMoney } from './money';
import { DataTable } from '../../components/data-table';

const TYPES: Record<string, string> = { top_up: 'Top-up', hold: 'Held', settlement: 'Charged', release: 'Released', refund: 'Refund', adjustment: 'Adjustment' };

/** What a person reads of a transaction: a top-up is one by card whatever the provider called its checkout. */
const describe = (t: LedgerTransactionRecord) => (t.type === 'top_up' ? 'Top-up by card' : t.description);

/**
 * The wallet's ledger, newest first, a page at a time (the cursors of the pages seen, to go back). The first page must
 * explain the balance shown above it (its newest row's balance after is that balance): while it does not, both are
 * loaded again (useLedgerInStep) and the table says it is updating.
 */
export function TransactionsTable({ balance, reloadBalance }: { balance?: string; reloadBalance: () => void }) {
  const api = useApi();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const page = useLiveQuery(['billing', 'transactions', cursor], () => api.transactions(cursor), undefined, { keepPrevious: true });
  const firstPage = cursors.length === 1 && page.data && !page.updating ? page.data : undefined;
  const reloadBoth = useCallback(() => {
    reloadBalance();
    page.reload();
  }, [reloadBalance, page.reload]);
  const step = useLedgerInStep(balance, firstPage ? (firstPage.data[0]?.balance_after ?? null) : undefined, reloadBoth);
  return (
    <>
      {step === 'updating' && (
        <p className="notice" role="status">
          Updating the transactions to the new balance…
        </p>
      )}
      {step === 'behind' && (
        <p className="notice notice-warning" role="status">
          The balance changed after this list was loaded.{' '}
          <button type="button" className="link-button" onClick={reloadBoth}>
            Show the latest transactions
          </button>
        </p>
      )}
      <TransactionsList page={page} cursors={cursors} setCursors={setCursors} />
    </>
  );
}

function TransactionsList({
  page,
  cursors,
  setCursors,
}: {
  page: AsyncState<LedgerTransactionPage>;
  cursors: (string | null)[];
  setCursors: Dispatch<SetStateAction<(string | null)[]>>;
}) {
  const api = useApi();
  const receipt = useAction();
  const downloadReceipt = async (topUpId: string) => {
    const pdf = await receipt.run(() => api.receiptPdf(topUpId));
    if (pdf) downloadBlob(pdf, `receipt-${topUpId}.pdf`);
  };
  return (
    <AsyncView state={page} what="transactions" isEmpty={(p) => p.data.length === 0 && cursors.length === 1} empty="No transactions yet.">
      {(p) => (
        <>
          <ErrorNotice error={receipt.error} />
          <div className="table-wrap">
            <DataTable
              caption="Transactions"
              rows={p.data}
              rowKey={(t) => t.id}
              columns={[
                { header: 'When', cell: (t) => formatTime(t.created_at) },
                { header: 'Type', cell: (t) => TYPES[t.type] ?? t.type },
                { header: 'Description', cell: (t) => describe(t) ?? <code>{t.cause_id}</code> },
                { header: 'Change', cell: (t) => (t.balance_change.startsWith('-') ? `−${formatMoney(t.balance_change.slice(1), t.currency)}` : formatMoney(t.balance_change, t.currency)) },
                { header: 'Balance after', cell: (t) => formatMoney(t.balance_after, t.currency) },
                {
                  header: 'Receipt',
                  hiddenHeader: true,
                  cell: (t) =>
                    t.type === 'top_up' && (
                      <button type="button" className="secondary button-small" disabled={receipt.pending} onClick={() => void downloadReceipt(t.cause_id)}>
                        Receipt (PDF)<span className="visually-hidden"> of the top-up of {formatMoney(t.amount, t.currency)}</span>
                      </button>
                    ),
                },
              ]}
            />
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
