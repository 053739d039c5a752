import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useAction, useAsync } from '../../components/use-async';
import { useApi } from '../../session/session';
import { formatMoney } from './money';

/** Monthly invoices with their PDF; says so plainly where the gateway has no invoices yet. */
export function InvoicesList() {
  const api = useApi();
  const invoices = useAsync(() => api.invoices(), 'invoices');
  const action = useAction();

  const download = async (id: string, number: number) => {
    const pdf = await action.run(() => api.invoicePdf(id));
    if (!pdf) return;
    const url = URL.createObjectURL(pdf);
    const link = document.createElement('a');
    link.href = url;
    link.download = `invoice-${number}.pdf`;
    link.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <>
      <ErrorNotice error={action.error} />
      <AsyncView state={invoices} what="invoices" isEmpty={(p) => p === null || p.data.length === 0} empty="No invoices yet: one is issued after each month.">
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
