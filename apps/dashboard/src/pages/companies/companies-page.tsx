import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Company } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { PageHeader } from '../../components/page-header';
import { useApi } from '../../session/session';
import { COMPANIES_KEY } from '../contacts/records-keys';
import '../contacts/records.css';

/** Companies: the tenant's companies, a new one, and each one's name and domain edited in place. */
export function CompaniesPage() {
  const api = useApi();
  const companies = useLiveQuery(COMPANIES_KEY, () => api.listCompanies());
  return (
    <section>
      <PageHeader title="Companies">The businesses your contacts work for; link a contact to one from the contact’s page or beside an inbox conversation.</PageHeader>
      <CompanyForm />
      <AsyncView state={companies} what="companies" isEmpty={(p) => p.data.length === 0} empty="No company yet: add one above.">
        {(page) => (
          <ul className="list" aria-label="Companies">
            {page.data.map((c) => (
              <li key={c.id}>
                <CompanyForm company={c} />
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

/** A new company (without `company`), or one's name and domain changed; every list of companies reads them again. */
function CompanyForm({ company }: { company?: Company }) {
  const api = useApi();
  const queries = useQueryClient();
  const action = useAction();
  const [name, setName] = useState(company?.name ?? '');
  const [domain, setDomain] = useState(company?.domain ?? '');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      company ? api.updateCompany(company.id, { name, domain: domain || null }) : api.createCompany(domain ? { name, domain } : { name }),
    );
    if (!saved) return;
    if (!company) {
      setName('');
      setDomain('');
    }
    void queries.invalidateQueries({ queryKey: COMPANIES_KEY });
  };
  const title = company ? `Company ${company.name}` : 'Add a company';
  return (
    <form className={company ? 'row wrap' : 'card row wrap'} onSubmit={(e) => void submit(e)} aria-label={title}>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} {...action.bind('name')} />
      </label>
      {action.fieldError('name')}
      <label>
        Domain
        <input value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" maxLength={253} {...action.bind('domain')} />
      </label>
      {action.fieldError('domain')}
      <button type="submit" className={company ? 'secondary' : undefined} disabled={action.pending}>
        {company ? 'Save' : 'Add company'}
      </button>
      <ErrorNotice error={action.error} />
    </form>
  );
}
