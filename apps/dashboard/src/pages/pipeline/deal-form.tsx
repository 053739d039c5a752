import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Deal, NewDeal, Pipeline } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi, useMember } from '../../session/session';
import { CONTACTS_KEY, DEALS_KEY } from '../contacts/records-keys';
import { MemberOptions } from '../inbox/member-options';
import { useTeamMembers } from '../inbox/team-members';

const DEFAULT_CURRENCY = 'EUR';

/**
 * A new deal (without `deal`) or one changed: title, contact, amount and currency, owner (a team member), expected
 * close date and stage. The board reads the deals again when it is saved.
 */
export function DealForm({ pipeline, deal, onDone }: { pipeline: Pipeline; deal?: Deal; onDone: () => void }) {
  const api = useApi();
  const me = useMember();
  const queries = useQueryClient();
  const members = useTeamMembers();
  const action = useAction();
  const [title, setTitle] = useState(deal?.title ?? '');
  const [find, setFind] = useState('');
  const [contactId, setContactId] = useState(deal?.contact_id ?? '');
  const [amount, setAmount] = useState(deal?.value?.amount ?? '');
  const [currency, setCurrency] = useState(deal?.value?.currency ?? DEFAULT_CURRENCY);
  const [owner, setOwner] = useState(deal ? (deal.owner ?? '') : (me?.id ?? ''));
  const [closeDate, setCloseDate] = useState(deal?.expected_close_date ?? '');
  const [stage, setStage] = useState(deal?.stage ?? pipeline.stages[0]);
  const contacts = useLiveQuery([...CONTACTS_KEY, 'list', find ? { q: find } : {}], () => api.listContacts(find ? { q: find } : {}), undefined, { keepPrevious: true });
  const choices = contacts.data?.data ?? [];
  const id = (field: string) => `deal-${deal?.id ?? 'new'}-${field}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The API names an unknown currency (400 on value.currency); the type only lists the ones it knows.
    const money = { amount: amount.trim(), currency: currency.trim().toUpperCase() as NewDeal['value']['currency'] };
    const saved = await action.run(() =>
      deal
        ? api.updateDeal(deal.id, { title, contact_id: contactId, ...(money.amount ? { value: money } : {}), owner: owner || null, expected_close_date: closeDate || null, stage })
        : api.createDeal({
            title,
            contact_id: contactId,
            pipeline_id: pipeline.id,
            stage,
            value: money,
            ...(owner ? { owner } : {}),
            ...(closeDate ? { expected_close_date: closeDate } : {}),
          }),
    );
    if (!saved) return;
    void queries.invalidateQueries({ queryKey: DEALS_KEY });
    onDone();
  };

  return (
    <form className="card form deal-form" onSubmit={(e) => void submit(e)} aria-label={deal ? `Edit deal ${deal.title}` : 'New deal'}>
      <h2>{deal ? `Edit “${deal.title}”` : 'New deal'}</h2>
      <label htmlFor={id('title')}>Title</label>
      <input id={id('title')} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} {...action.bind('title')} />
      {action.fieldError('title')}
      <label htmlFor={id('find')}>Find a contact</label>
      <input id={id('find')} type="search" value={find} onChange={(e) => setFind(e.target.value)} placeholder="Name, email or number" maxLength={200} />
      <label htmlFor={id('contact')}>Contact</label>
      <select id={id('contact')} value={contactId} onChange={(e) => setContactId(e.target.value)} required {...action.bind('contact_id')}>
        <option value="">choose a contact</option>
        {deal && !choices.some((c) => c.id === deal.contact_id) && <option value={deal.contact_id}>the deal’s contact</option>}
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name ?? c.phone ?? c.email ?? c.id}
            {c.name && c.phone ? ` (${c.phone})` : ''}
          </option>
        ))}
      </select>
      {action.fieldError('contact_id')}
      <div className="row wrap deal-money">
        <div className="form">
          <label htmlFor={id('amount')}>Amount</label>
          <input id={id('amount')} inputMode="decimal" required={!deal} value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="1250.00" {...action.bind('value.amount')} />
        </div>
        <div className="form">
          <label htmlFor={id('currency')}>Currency</label>
          <input id={id('currency')} value={currency} onChange={(e) => setCurrency(e.target.value)} maxLength={3} size={4} pattern="[A-Za-z]{3}" {...action.bind('value.currency')} />
        </div>
      </div>
      {action.fieldError('value.amount')}
      {action.fieldError('value.currency')}
      {action.fieldError('value')}
      <label htmlFor={id('owner')}>Owner</label>
      <select id={id('owner')} value={owner} onChange={(e) => setOwner(e.target.value)} {...action.bind('owner')}>
        <MemberOptions members={members} />
      </select>
      {action.fieldError('owner')}
      <label htmlFor={id('close')}>Expected close</label>
      <input id={id('close')} type="date" value={closeDate} onChange={(e) => setCloseDate(e.target.value)} {...action.bind('expected_close_date')} />
      {action.fieldError('expected_close_date')}
      <label htmlFor={id('stage')}>Stage</label>
      <select id={id('stage')} value={stage} onChange={(e) => setStage(e.target.value)} {...action.bind('stage')}>
        {pipeline.stages.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <ErrorNotice error={action.error} />
      <div className="row wrap">
        <button type="submit" disabled={action.pending}>
          {deal ? 'Save deal' : 'Create deal'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
