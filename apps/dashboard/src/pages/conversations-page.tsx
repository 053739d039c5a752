import { useRef, useState } from 'react';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { DataTable, type Column } from '../components/data-table';
import { formatTime, formatTimeIn } from '../components/format';
import { APPOINTMENTS_LIVE, CONVERSATIONS_LIVE, LEADS_LIVE, concernsCustomer } from '../components/live-refresh';
import { PageHeader } from '../components/page-header';
import { type AsyncState, useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

/** Conversations with their messages, the leads and bookings the agents made, and releasing a handed-off one. */
export function ConversationsPage() {
  const api = useApi();
  const conversations = useLiveQuery(['conversations', 'list'], () => api.listConversations(), CONVERSATIONS_LIVE);
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
  const conversation = useLiveQuery(['conversations', 'one', id], () => api.getConversation(id), { ...CONVERSATIONS_LIVE, filter: (event) => concernsCustomer(event, customer.current) });
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
  const leads = useLiveQuery(['leads'], () => api.listLeads(), LEADS_LIVE);
  return (
    <RecordsCard
      id="leads"
      title="Leads"
      state={leads}
      what="leads"
      empty="No leads captured yet."
      columns={[
        { header: 'Name', cell: (l) => l.name ?? '—' },
        { header: 'Email', cell: (l) => l.email ?? '—' },
        { header: 'Phone', cell: (l) => l.phone ?? '—' },
        { header: 'Interest', cell: (l) => l.interest ?? '—' },
        { header: 'Captured', cell: (l) => formatTime(l.created_at) },
      ]}
    />
  );
}

function Appointments() {
  const api = useApi();
  const appointments = useLiveQuery(['appointments'], () => api.listAppointments(), APPOINTMENTS_LIVE);
  return (
    <RecordsCard
      id="appointments"
      title="Bookings"
      note="Times are shown in the agent’s time zone (the one customers book in), not your own."
      state={appointments}
      what="bookings"
      empty="No appointments booked yet."
      columns={[
        { header: 'Customer', cell: (a) => a.customer },
        { header: 'Starts', cell: (a) => <span data-testid="booking-starts">{formatTimeIn(a.starts_at, a.timezone)}</span> },
        { header: 'Ends', cell: (a) => <span data-testid="booking-ends">{formatTimeIn(a.ends_at, a.timezone)}</span> },
        { header: 'Time zone', cell: (a) => a.timezone },
        { header: 'Status', cell: (a) => a.status },
      ]}
    />
  );
}

/** A card with a page of records as a table. */
function RecordsCard<T extends { id: string }>({
  id,
  title,
  note,
  state,
  what,
  empty,
  columns,
}: {
  id: string;
  title: string;
  /** Said under the title (how to read the records). */
  note?: string;
  state: AsyncState<{ data: T[] }>;
  what: string;
  empty: string;
  columns: Column<T>[];
}) {
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {note && <p className="muted small">{note}</p>}
      <AsyncView state={state} what={what} isEmpty={(p) => p.data.length === 0} empty={empty}>
        {(page) => (
          <div className="table-wrap">
            <DataTable caption={title} rows={page.data} rowKey={(record) => record.id} columns={columns} />
          </div>
        )}
      </AsyncView>
    </section>
  );
}
