import { useState, type FormEvent } from 'react';
import { AsyncView } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { PageHeader } from '../../components/page-header';
import { Link, useRouter } from '../../router';
import { useCan } from '../../session/permissions';
import { useApi } from '../../session/session';
import { ContactDetail } from './contact-detail';
import { ContactImportForm } from './contact-import';
import { CONTACTS_KEY, CONTACT_EVENTS } from './records-keys';
import './records.css';
import { DataTable } from '../../components/data-table';

/** Contacts: the searchable list at `/contacts`, one contact with its timeline and deals at `/contacts/{id}`. */
export function ContactsPage() {
  const { path } = useRouter();
  const openId = path.startsWith('/contacts/') ? decodeURIComponent(path.slice('/contacts/'.length)) : undefined;
  return (
    <section>
      <PageHeader title="Contacts">Every customer who wrote in, was imported or left their details with your agent: one per number.</PageHeader>
      {openId ? <ContactDetail id={openId} /> : <ContactList />}
    </section>
  );
}

function ContactList() {
  const api = useApi();
  const can = useCan();
  const [draft, setDraft] = useState({ q: '', tag: '' });
  const [filters, setFilters] = useState({ q: '', tag: '' });
  const query = { ...(filters.q ? { q: filters.q } : {}), ...(filters.tag ? { tag: filters.tag } : {}) };
  // Live: an import's contacts, a new lead, an edit in another tab show without a reload (and on coming back); an
  // import's burst of events makes one read a second after it starts, and more while it lasts.
  const contacts = useLiveQuery([...CONTACTS_KEY, 'list', query], () => api.listContacts(query), { events: CONTACT_EVENTS, delaysMs: [1000] }, { keepPrevious: true });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: draft.q.trim(), tag: draft.tag.trim() });
  };
  return (
    <>
      <ContactImportForm onFinished={contacts.reload} />
      <form className="card row wrap" role="search" aria-label="Find contacts" onSubmit={search}>
        <label>
          Name, email or number
          <input type="search" value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} maxLength={200} />
        </label>
        <label>
          Tag
          <input value={draft.tag} onChange={(e) => setDraft({ ...draft, tag: e.target.value })} maxLength={50} />
        </label>
        <button type="submit">Search</button>
        {/* an `agent` member may not export the contacts (the gateway answers 403): no link they would meet it by */}
        {can('contacts.export') && (
          <a className="button-link" href="/api/v1/contacts/export" download="contacts.csv">
            Export CSV
          </a>
        )}
      </form>
      <AsyncView state={contacts} what="contacts" isEmpty={(p) => p.data.length === 0} empty="No contact matches.">
        {(page) => (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Contacts table">
          <DataTable
            caption="Contacts, newest first"
            rows={page.data}
            rowKey={(c) => c.id}
            rowProps={() => ({ 'data-testid': 'contact-row' })}
            columns={[
              {
                header: 'Name',
                cell: (c) => (
                  <>
                    <Link to={`/contacts/${c.id}`}>{c.name ?? c.phone ?? c.email ?? c.id}</Link>
                    {c.opted_out && <span className="badge badge-warning">opted out</span>}
                  </>
                ),
              },
              { header: 'Number', cell: (c) => c.phone ?? '—' },
              { header: 'Email', cell: (c) => c.email ?? '—' },
              { header: 'Tags', cell: (c) => (c.tags.length ? c.tags.join(', ') : '—') },
            ]}
          />
          </div>
        )}
      </AsyncView>
    </>
  );
}
