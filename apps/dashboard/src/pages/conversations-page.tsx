import { useRef, useState, type ReactNode } from 'react';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime, formatTimeIn } from '../components/format';
import { APPOINTMENTS_LIVE, CONVERSATIONS_LIVE, LEADS_LIVE, concernsCustomer } from '../components/live-refresh';
import { PageHeader } from '../components/page-header';
import { useAction, useAsync, type AsyncState } from '../components/use-async';
import { useApi } from '../session/session';

/** Conversations with their messages, the leads and bookings the agents made, and releasing a handed-off one. */
export function ConversationsPage() {
  const api = useApi();
  const conversations = useAsync(() => api.listConversations(), 'conversations', CONVERSATIONS_LIVE);
  const [selected, setSelected] = useState<string>();
  return (
    <section>
      <PageHeader title="Conversations">The API’s conversation log: what your customers and AI agents said, and the leads and bookings that came of it.</PageHeader>
      <div className="split">
        <AsyncView state={conversations} what="conversations" isEmpty={(p) => p.data.length === 0} empty="No conversations yet.">
          {(page) => (
            <ul className="list" aria-label="Conversations">
              {page.data.map((c) => (
                <li key={c.id}>
                  <button type="button" className="list-item" aria-pressed={selected === c.id} onClick={() => setSelected(c.id)}>
                    <strong>{c.customer}</strong> {c.state === 'handed_off' && <span className="badge badge-warning">handed off</span>}
                    <span className="muted block">last message {formatTime(c.last_message_at)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </AsyncView>
        {selected && <ConversationDetail key={selected} id={selected} onReleased={conversations.reload} />}
      </div>
      <Leads />
      <Appointments />
    </section>
  );
}

function ConversationDetail({ id, onReleased }: { id: string; onReleased(): void }) {
  const api = useApi();
  // Known once loaded; until then every conversation event refreshes it.
  const customer = useRef<string>(undefined);
  const conversation = useAsync(() => api.getConversation(id), id, { ...CONVERSATIONS_LIVE, filter: (event) => concernsCustomer(event, customer.current) });
  customer.current = conversation.data?.customer;
  const action = useAction();
  const release = async () => {
    await action.run(() => api.releaseConversation(id));
    conversation.reload();
    onReleased();
  };
  return (
    <AsyncView state={conversation} what="the conversation">
      {(c) => (
        <article className="card" aria-label={`Conversation with ${c.customer}`}>
          <h2>{c.customer}</h2>
          <p className="muted">
            Started {formatTime(c.started_at)} · {c.state === 'handed_off' ? 'handed off to a team member: the AI agent is silent' : 'the AI agent answers'}
          </p>
          {c.state === 'handed_off' && (
            <button type="button" onClick={() => void release()} disabled={action.pending}>
              Release to the agent
            </button>
          )}
          <ErrorNotice error={action.error} />
          <ol className="chat">
            {c.messages.map((m) => (
              <li key={m.message_id} className={`bubble bubble-${m.role}`}>
                <p>{m.text}</p>
                <p className="muted small">{formatTime(m.at)}</p>
              </li>
            ))}
          </ol>
        </article>
      )}
    </AsyncView>
  );
}

function Leads() {
  const api = useApi();
  const leads = useAsync(() => api.listLeads(), 'leads', LEADS_LIVE);
  return (
    <RecordsCard id="leads" title="Leads" state={leads} what="leads" empty="No leads captured yet." columns={['Name', 'Email', 'Phone', 'Interest', 'Captured']}>
      {(l) => (
        <>
          <td>{l.name ?? '—'}</td>
          <td>{l.email ?? '—'}</td>
          <td>{l.phone ?? '—'}</td>
          <td>{l.interest ?? '—'}</td>
          <td>{formatTime(l.created_at)}</td>
        </>
      )}
    </RecordsCard>
  );
}

function Appointments() {
  const api = useApi();
  const appointments = useAsync(() => api.listAppointments(), 'appointments', APPOINTMENTS_LIVE);
  return (
    <RecordsCard
      id="appointments"
      title="Bookings"
      note="Times are shown in the agent’s time zone (the one customers book in), not your own."
      state={appointments}
      what="bookings"
      empty="No appointments booked yet."
      columns={['Customer', 'Starts', 'Ends', 'Time zone', 'Status']}
    >
      {(a) => (
        <>
          <td>{a.customer}</td>
          <td data-testid="booking-starts">{formatTimeIn(a.starts_at, a.timezone)}</td>
          <td data-testid="booking-ends">{formatTimeIn(a.ends_at, a.timezone)}</td>
          <td>{a.timezone}</td>
          <td>{a.status}</td>
        </>
      )}
    </RecordsCard>
  );
}

/** A card with a page of records as a table: a header cell per column, a row per record; `children` renders a row's cells. */
function RecordsCard<T extends { id: string }>({
  id,
  title,
  note,
  state,
  what,
  empty,
  columns,
  children,
}: {
  id: string;
  title: string;
  /** Said under the title (how to read the records). */
  note?: string;
  state: AsyncState<{ data: T[] }>;
  what: string;
  empty: string;
  columns: string[];
  children: (record: T) => ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {note && <p className="muted small">{note}</p>}
      <AsyncView state={state} what={what} isEmpty={(p) => p.data.length === 0} empty={empty}>
        {(page) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {page.data.map((record) => (
                  <tr key={record.id}>{children(record)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AsyncView>
    </section>
  );
}
