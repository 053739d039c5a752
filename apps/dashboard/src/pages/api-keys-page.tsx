import { useState, type FormEvent } from 'react';
import { CopyableValue } from '../components/copy-button';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { useLiveQuery } from '../components/live-query';
import { formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { DataTable } from '../components/data-table';

/** API keys: create (shown once), list, revoke. */
export function ApiKeysPage() {
  const api = useApi();
  const keys = useLiveQuery(['api-keys'], () => api.listApiKeys());
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
            <DataTable
              caption="API keys"
              rows={page.data}
              rowKey={(k) => k.id}
              columns={[
                { header: 'Name', cell: (k) => k.name ?? <span className="muted">unnamed</span> },
                { header: 'Key', cell: (k) => <code>{k.prefix ? `${k.prefix}…` : k.id}</code> },
                { header: 'Created', cell: (k) => formatTime(k.created_at) },
                {
                  header: 'Actions',
                  hiddenHeader: true,
                  cell: (k) => (
                    <button type="button" className="danger button-small" onClick={() => void revoke(k.id, k.name ?? k.id)}>
                      Revoke
                    </button>
                  ),
                },
              ]}
            />
          </div>
        )}
      </AsyncView>
    </section>
  );
}
