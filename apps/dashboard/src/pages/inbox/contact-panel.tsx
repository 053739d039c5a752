import type { InboxThread } from '../../api';
import { AsyncView } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { Link } from '../../router';
import { useApi } from '../../session/session';
import { ContactForm } from '../contacts/contact-form';
import { CONTACTS_KEY } from '../contacts/records-keys';

/**
 * The conversation's contact beside the thread: their details edited in place (name, email, tags, attributes,
 * company), found by the number or address they write from (crm-service keeps one contact per number).
 */
export function ContactPanel({ thread }: { thread: InboxThread }) {
  const api = useApi();
  const customer = thread.customer;
  const contact = useLiveQuery(
    [...CONTACTS_KEY, 'by-customer', customer],
    () => api.listContacts({ q: customer }).then((page) => page.data.find((c) => c.phone === customer || c.email?.toLowerCase() === customer.toLowerCase()) ?? null),
    { events: ['contact.created', 'contact.updated'], delaysMs: [250, 1500] },
  );
  return (
    <aside className="card contact-panel" aria-labelledby="contact-panel-title">
      <h2 id="contact-panel-title">Contact</h2>
      <AsyncView state={contact} what="the contact">
        {(c) =>
          c ? (
            <>
              <p className="small muted">
                {c.phone ?? c.email}
                {c.opted_out && <span className="badge badge-warning">opted out</span>}
              </p>
              <ContactForm key={c.id} contact={c} idPrefix="panel-contact" />
              <p className="small">
                <Link to={`/contacts/${c.id}`}>Timeline and deals</Link>
              </p>
            </>
          ) : (
            <p className="small muted">No contact for {customer} yet: one is made with their first message.</p>
          )
        }
      </AsyncView>
    </aside>
  );
}
