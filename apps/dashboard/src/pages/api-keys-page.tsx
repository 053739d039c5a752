import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyableValue } from '../components/copy-button';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { queryState } from '../components/query-state';
import { formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-async';
import { useApi } from '../session/session';

/** API keys: create (shown once), list, revoke. */
export function ApiKeysPage() {
  const api = useApi();
  const keys = queryState(useQuery({ queryKey: ['api-keys'], queryFn: () => api.listApiKeys() }));
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string>();
  const action = useAction();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const key = await action.run(() => api.createApiKey(name.trim() || undefined));
    if (!key) return;
    setCreated(key.api_key);
    setName('');
    keys.reload();
  };
  const revoke = async (id: string, label: string) => {
    if (!window.confirm(`Revoke ${label}? Programs using it stop working within seconds.`)) return;
    await action.run(() => api.revokeApiKey(id));
    keys.reload();
  };

  return (
    <section>
      <PageHeader title="API keys">
        Keys let your own programs call the Parley API. A program sends one in the header <code>Authorization: Bearer {'<key>'}</code>.
      </PageHeader>
      <form className="form card" onSubmit={(e) => void create(e)} aria-label="Create an API key">
        <label>
          Name <span className="muted">(optional, e.g. “CRM sync”)</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} {...action.bind('name')} />
        </label>
        {action.fieldError('name')}
        <button type="submit" disabled={action.pending}>
          Create key
        </button>
      </form>
      {created && (
        <div className="notice notice-warning" role="alert">
          Copy the new key now: it is shown only this once.
          <dl>
            <CopyableValue label="New API key" value={created} />
          </dl>
        </div>
      )}
      <ErrorNotice error={action.error} />
      <AsyncView state={keys} what="API keys" isEmpty={(p) => p.data.length === 0} empty="No API keys.">
        {(page) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name ?? <span className="muted">unnamed</span>}</td>
                    <td>
                      <code>{k.prefix ? `${k.prefix}…` : k.id}</code>
                    </td>
                    <td>{formatTime(k.created_at)}</td>
                    <td>
                      <button type="button" className="danger button-small" onClick={() => void revoke(k.id, k.name ?? k.id)}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AsyncView>
    </section>
  );
}
