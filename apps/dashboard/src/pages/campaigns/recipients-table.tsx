import { useState } from 'react';
import { type LiveRefresh, useLiveQuery } from '../../components/live-query';
import { RECIPIENT_STATUS_OPTIONS, type RecipientStatus } from '../../api';
import { AsyncView } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useApi } from '../../session/session';
import { DataTable } from '../../components/data-table';

/**
 * A campaign's recipients a page at a time (the cursors of the pages seen, to go back), optionally only those of one
 * status; a new status starts again at the first page. While a new status or page is on its way the previous one stays
 * on screen, so its caption and empty text come with the answer (which status, which page), not from the choice just
 * made: the table never says "skipped opted out" above rows of every status.
 */
export function RecipientsTable({ id, live, version }: { id: string; live: LiveRefresh; version: number }) {
  const api = useApi();
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const pageNumber = cursors.length;
  const page = useLiveQuery(
    ['campaigns', id, 'recipients', { status, cursor, version }],
    async () => ({ ...(await api.campaignRecipients(id, status || null, cursor)), status, pageNumber }),
    live,
    { keepPrevious: true },
  );
  const choose = (next: RecipientStatus | '') => {
    setStatus(next);
    setCursors([null]);
  };
  return (
    <>
      <label>
        Show{' '}
        <select value={status} onChange={(e) => choose(e.target.value as RecipientStatus | '')}>
          <option value="">every status</option>
          {RECIPIENT_STATUS_OPTIONS.map((s) => (
            <option key={s} value={s}>
              {statusText(s)}
            </option>
          ))}
        </select>
      </label>
      <AsyncView
        state={page}
        what="recipients"
        isEmpty={(p) => p.data.length === 0 && p.pageNumber === 1}
        empty={(p) => (p.status ? `No recipient is ${statusText(p.status)}.` : 'The recipients are listed once the campaign starts.')}
      >
        {(p) => (
          <>
            <div className="table-wrap">
              <DataTable
                captionVisible
                captionClassName="small muted"
                caption={`${p.status ? `Recipients ${statusText(p.status)}` : 'Recipients'}, page ${p.pageNumber}`}
                rows={p.data}
                rowKey={(r) => r.contact_id}
                rowProps={() => ({ 'data-testid': 'recipient-row' })}
                columns={[
                  { header: 'Number', cell: (r) => r.phone },
                  { header: 'Status', cell: (r) => <span className={`status status-${r.status}`}>{statusText(r.status)}</span> },
                  { header: 'Replied', cell: (r) => (r.replied_at ? formatTime(r.replied_at) : '') },
                  { header: 'Error', cell: (r) => (r.error ? `${r.error.code} ${r.error.title}` : '') },
                ]}
              />
            </div>
            <div className="row wrap">
              <button type="button" className="secondary button-small" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                Previous page
              </button>
              <button type="button" className="secondary button-small" disabled={!p.next_cursor} onClick={() => p.next_cursor && setCursors((c) => [...c, p.next_cursor])}>
                Next page
              </button>
            </div>
          </>
        )}
      </AsyncView>
    </>
  );
}

function statusText(status: RecipientStatus): string {
  return status.replace(/_/g, ' ');
}
