import { useState, type FormEvent } from 'react';
import type { ContactActivity } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { channelLabel } from '../../components/channel';
import { formatTime } from '../../components/format';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { Link } from '../../router';
import { useApi } from '../../session/session';
import { formatMoney } from '../pipeline/deal-money';
import { ContactForm } from './contact-form';
import { DEALS_KEY, DEAL_EVENTS, contactKey } from './records-keys';

const ACTIVITY_LABELS: Record<ContactActivity['type'], string> = {
  message: 'Message',
  lead_captured: 'Lead captured',
  appointment_booked: 'Appointment booked',
  appointment_rescheduled: 'Appointment moved',
  appointment_cancelled: 'Appointment cancelled',
  deal_created: 'Deal opened',
  deal_stage_changed: 'Deal moved',
  note: 'Note',
  call: 'Call',
  task: 'Task',
};

/** What a timeline entry is, in words: "From the customer on WhatsApp", "Note". */
export function activityLabel(entry: ContactActivity): string {
  if (entry.type !== 'message') return ACTIVITY_LABELS[entry.type];
  return `${entry.direction === 'in' ? 'From the customer' : 'To the customer'}${entry.channel ? ` on ${channelLabel(entry.channel)}` : ''}`;
}

/** One contact: who they are (edited in place), everything that happened with them (newest first), and their deals. */
export function ContactDetail({ id }: { id: string }) {
  const api = useApi();
  const contact = useLiveQuery(contactKey(id), () => api.contact(id), { events: ['contact.updated'], filter: (e) => (e.data.contact as { id?: string } | undefined)?.id === id });
  const deals = useLiveQuery([...DEALS_KEY, 'contact', id], () => api.listDeals({ contact_id: id }), { events: DEAL_EVENTS });
  return (
    <>
      <p>
        <Link to="/contacts">← All contacts</Link>
      </p>
      <AsyncView state={contact} what="the contact">
        {(c) => (
          <section className="card" aria-labelledby="contact-heading">
            <h2 id="contact-heading">{c.name ?? c.phone ?? c.email ?? c.id}</h2>
            <dl className="facts">
              <dt>Number</dt>
              <dd>{c.phone ?? '—'}</dd>
              <dt>Marketing</dt>
              <dd>{c.opted_out ? 'Opted out (STOP)' : 'Subscribed'}</dd>
            </dl>
            {/* Keyed by the contact: the form keeps what is being typed while the contact is read again. */}
            <ContactForm key={c.id} contact={c} idPrefix="contact" />
          </section>
        )}
      </AsyncView>
      <section aria-labelledby="contact-deals">
        <h2 id="contact-deals">Deals</h2>
        <AsyncView state={deals} what="deals" isEmpty={(p) => p.data.length === 0} empty="No deal yet.">
          {(page) => (
            <ul className="list">
              {page.data.map((d) => (
                <li key={d.id}>
                  <strong>{d.title}</strong> · {d.stage}
                  {d.value ? ` · ${formatMoney(d.value)}` : ''} · <Link to="/pipeline">on the pipeline</Link>
                </li>
              ))}
            </ul>
          )}
        </AsyncView>
      </section>
      <Timeline id={id} />
    </>
  );
}

function Timeline({ id }: { id: string }) {
  const api = useApi();
  const [older, setOlder] = useState<ContactActivity[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const first = useLiveQuery([...contactKey(id), 'activities'], () => api.contactActivities(id), {
    events: ['message.received', 'message.status', 'lead.captured', 'deal.created', 'deal.stage_changed', 'appointment.booked'],
    delaysMs: [1000],
  });
  const more = useAction();
  const nextCursor = cursor === undefined ? first.data?.next_cursor : cursor;
  const loadOlder = async () => {
    if (!nextCursor) return;
    const page = await more.run(() => api.contactActivities(id, nextCursor));
    if (!page) return;
    setOlder((entries) => [...entries, ...page.data]);
    setCursor(page.next_cursor);
  };
  return (
    <section aria-labelledby="contact-timeline">
      <h2 id="contact-timeline">Timeline</h2>
      <NoteForm id={id} onAdded={first.reload} />
      <AsyncView state={first} what="the timeline" isEmpty={(p) => p.data.length === 0 && older.length === 0} empty="Nothing yet.">
        {(page) => (
          <>
            <ol className="list" aria-label="Timeline, newest first">
              {[...page.data, ...older].map((entry) => (
                <li key={entry.id} data-testid="activity">
                  <div className="row wrap">
                    <strong>{activityLabel(entry)}</strong>
                    <time className="small muted" dateTime={entry.occurred_at}>
                      {formatTime(entry.occurred_at)}
                    </time>
                  </div>
                  {entry.text && <p className="activity-text">{entry.text}</p>}
                  {entry.due_at && <p className="small muted">Due {formatTime(entry.due_at)}</p>}
                </li>
              ))}
            </ol>
            <ErrorNotice error={more.error} />
            {nextCursor && (
              <button type="button" className="secondary" onClick={() => void loadOlder()} disabled={more.pending}>
                Older
              </button>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

function NoteForm({ id, onAdded }: { id: string; onAdded: () => void }) {
  const api = useApi();
  const action = useAction();
  const [text, setText] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => api.addContactNote(id, text))) {
      setText('');
      onAdded();
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="Add a note">
      <label>
        Note
        <textarea value={text} onChange={(e) => setText(e.target.value)} required maxLength={5000} rows={2} {...action.bind('text')} />
      </label>
      {action.fieldError('text')}
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        Add note
      </button>
    </form>
  );
}
