import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { downloadBlob } from './download';
import { formatMoney } from './money';
import { DataTable } from '../../components/data-table';

/**
 * Monthly invoices with their PDF, and an invoice of the month so far on request (numbered like the others: the
 * month's next invoice then covers only the rest of it). Says so plainly where there are no invoices yet.
 */
export function InvoicesList() {
  const api = useApi();
  const invoices = useLiveQuery(['billing', 'invoices'], () => api.invoices());
  const action = useAction();

  const download = async (id: string, number: number) => {
    const pdf = await action.run(() => api.invoicePdf(id));
    if (pdf) downloadBlob(pdf, `invoice-${number}.pdf`);
  };
  const invoiceMonthSoFar = async () => {
    const issued = await action.run(() => api.issueInvoice());
    if (!issued) return;
    invoices.reload();
    await download(issued.id, issued.number);
  };

  return (
    <>
      <div className="row wrap">
        <button type="button" className="secondary" disabled={action.pending} onClick={() => void invoiceMonthSoFar()}>
          Invoice the month so far (PDF)
        </button>
        <span className="small muted">Closes the period since your last invoice now; the month’s next invoice covers the rest.</span>
      </div>
      <ErrorNotice error={action.error} />
      <AsyncView state={invoices} what="invoices" isEmpty={(p) => p === null || p.data.length === 0} empty="No invoices yet: one is issued after each month, or ask for the month so far above.">
        {(p) => (
          <div className="table-wrap">
            <DataTable
              caption="Invoices"
              rows={p?.data ?? []}
              rowKey={(inv) => inv.id}
              columns={[
                { header: 'Number', cell: (inv) => inv.number },
                { header: 'Period', cell: (inv) => `${inv.period_start.slice(0, 10)} – ${inv.period_end.slice(0, 10)}` },
                { header: 'Total', cell: (inv) => formatMoney(inv.total, inv.currency) },
                { header: 'Issued', cell: (inv) => formatTime(inv.issued_at) },
                {
                  header: 'Download',
                  hiddenHeader: true,
                  cell: (inv) => (
                    <button type="button" className="secondary button-small" disabled={action.pending} onClick={() => void download(inv.id, inv.number)}>
                      Download PDF<span className="visually-hidden"> of invoice {inv.number}</span>
                    </button>
                  ),
                },
              ]}
            />
          </div>
        )}
      </AsyncView>
    </>
  );
}
