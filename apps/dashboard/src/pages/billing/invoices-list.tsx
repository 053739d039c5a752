import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useAction, useAsync } from '../../components/use-async';
import { useApi } from '../../session/session';
import { downloadBlob } from './download';
import { formatMoney } from './money';

/**
 * Monthly invoices with their PDF, and an invoice of the month so far on request (numbered like the others: the
 * month's next invoice then covers only the rest of it). Says so plainly where there are no invoices yet.
 */
export function InvoicesList() {
  const api = useApi();
  const invoices = useAsync(() => api.invoices(), 'invoices');
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
            <table>
              <caption className="visually-hidden">Invoices</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Period</th>
                  <th scope="col">Total</th>
                  <th scope="col">Issued</th>
                  <th scope="col">
                    <span className="visually-hidden">Download</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(p?.data ?? []).map((inv) => (
                  <tr key={inv.id}>
                    <td>{inv.number}</td>
                    <td>
                      {inv.period_start.slice(0, 10)} – {inv.period_end.slice(0, 10)}
                    </td>
                    <td>{formatMoney(inv.total, inv.currency)}</td>
                    <td>{formatTime(inv.issued_at)}</td>
                    <td>
                      <button type="button" className="secondary button-small" disabled={action.pending} onClick={() => void download(inv.id, inv.number)}>
                        Download PDF<span className="visually-hidden"> of invoice {inv.number}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AsyncView>
    </>
  );
}
