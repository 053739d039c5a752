import { useState, type FormEvent } from 'react';
import type { Company } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useAction, useAsync } from '../../components/use-async';
import { PageHeader } from '../../components/page-header';
import { useApi } from '../../session/session';

/** Companies: the tenant's companies, a new one, and each one's name and domain edited in place. */
export function CompaniesPage() {
  const api = useApi();
  const companies = useAsync(() => api.listCompanies(), 'companies');
  return (
    <section>
      <PageHeader title="Companies">The businesses your contacts work for; link a contact to one with its <code>company_id</code>.</PageHeader>
      <CompanyForm onSaved={companies.reload} />
      <AsyncView state={companies} what="companies" isEmpty={(p) => p.data.length === 0} empty="No company yet: add one above.">
        {(page) => (
          <ul className="list" aria-label="Companies">
            {page.data.map((c) => (
              <li key={c.id}>
                <CompanyForm company={c} onSaved={companies.reload} />
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

/** A new company (without `company`), or one's name and domain changed. */
function CompanyForm({ company, onSaved }: { company?: Company; onSaved: () => void }) {
  const api = useApi();
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
    onSaved();
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
