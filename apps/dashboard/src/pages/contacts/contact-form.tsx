import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Contact } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { COMPANIES_KEY, CONTACTS_KEY } from './records-keys';

type AttributeValue = string | number | boolean;
interface AttributeRow {
  key: string;
  value: string;
}

/** Tags as people type them: "vip, bikes; repair" → ["vip", "bikes", "repair"] (the import takes `;`, people type `,`). */
export function parseTags(typed: string): string[] {
  return [...new Set(typed.split(/[,;]/).map((t) => t.trim()).filter(Boolean))];
}

/** An attribute's typed text back to its kind: numbers and true/false as such, the rest as text. */
function attributeValue(typed: string): AttributeValue {
  const text = typed.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text) && text.length < 16) return Number(text);
  return text;
}

/**
 * A contact's details edited in place (name, email, tags, attributes, company): on the contact's page and beside an
 * inbox thread. Saving changes only what the form holds; the inbox and the lists read the contact again.
 */
export function ContactForm({ contact, idPrefix, onSaved }: { contact: Contact; idPrefix: string; onSaved?: (saved: Contact) => void }) {
  const api = useApi();
  const queries = useQueryClient();
  const action = useAction();
  const companies = useLiveQuery(COMPANIES_KEY, () => api.listCompanies());
  const [name, setName] = useState(contact.name ?? '');
  const [email, setEmail] = useState(contact.email ?? '');
  const [tags, setTags] = useState(contact.tags.join(', '));
  const [companyId, setCompanyId] = useState(contact.company_id ?? '');
  const [attributes, setAttributes] = useState<AttributeRow[]>(Object.entries(contact.attributes).map(([key, value]) => ({ key, value: String(value) })));
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body = {
      name: name.trim() || null,
      email: email.trim() || null,
      tags: parseTags(tags),
      company_id: companyId || null,
      attributes: Object.fromEntries(attributes.filter((a) => a.key.trim()).map((a) => [a.key.trim(), attributeValue(a.value)])),
    };
    const result = await action.run(() => api.updateContact(contact.id, body));
    if (!result) return;
    setSaved(true);
    // Every list that shows the contact: contacts, the inbox (its name; it arrives there through the inbox's service).
    void queries.invalidateQueries({ queryKey: CONTACTS_KEY });
    void queries.invalidateQueries({ queryKey: ['inbox'] });
    onSaved?.(result);
  };
  const setAttribute = (index: number, change: Partial<AttributeRow>) => {
    setSaved(false);
    setAttributes((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  };
  const id = (field: string) => `${idPrefix}-${field}`;
  const tagsBinding = action.bind('tags');

  return (
    // noValidate: the API names what is wrong with a field, beside it, in the same words as every other form.
    <form className="form contact-form" onSubmit={(e) => void submit(e)} aria-label="Contact details" onChange={() => setSaved(false)} noValidate>
      <label htmlFor={id('name')}>Name</label>
      <input id={id('name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} autoComplete="off" {...action.bind('name')} />
      {action.fieldError('name')}
      <label htmlFor={id('email')}>Email</label>
      <input id={id('email')} type="email" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} autoComplete="off" {...action.bind('email')} />
      {action.fieldError('email')}
      <label htmlFor={id('tags')}>Tags</label>
      <input
        id={id('tags')}
        value={tags}
        onChange={(e) => setTags(e.target.value)}
        {...tagsBinding}
        aria-describedby={[id('tags-hint'), tagsBinding['aria-describedby']].filter(Boolean).join(' ')}
      />
      <span id={id('tags-hint')} className="small muted">
        Separated by commas, e.g. vip, repair
      </span>
      {action.fieldError('tags')}
      <label htmlFor={id('company')}>Company</label>
      <select id={id('company')} value={companyId} onChange={(e) => setCompanyId(e.target.value)} {...action.bind('company_id')}>
        <option value="">none</option>
        {companies.data?.data.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      {action.fieldError('company_id')}
      <fieldset className="attributes">
        <legend>Attributes</legend>
        {attributes.length === 0 && <p className="small muted">None yet.</p>}
        {attributes.map((row, index) => (
          <div className="attribute-row" key={index}>
            <input aria-label={`Attribute ${index + 1} name`} value={row.key} onChange={(e) => setAttribute(index, { key: e.target.value })} maxLength={64} placeholder="name" />
            <input aria-label={`Attribute ${index + 1} value`} value={row.value} onChange={(e) => setAttribute(index, { value: e.target.value })} maxLength={1000} placeholder="value" />
            <button type="button" className="secondary" onClick={() => setAttributes((rows) => rows.filter((_, i) => i !== index))}>
              Remove<span className="visually-hidden"> attribute {row.key || index + 1}</span>
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => setAttributes((rows) => [...rows, { key: '', value: '' }])}>
          Add attribute
        </button>
        {action.fieldError('attributes')}
      </fieldset>
      <ErrorNotice error={action.error} />
      <div className="row wrap">
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Saving…' : 'Save contact'}
        </button>
        {saved && (
          <span role="status" className="small">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
