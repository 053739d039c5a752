import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEndpoint, type WebhookEventType } from '../api';
import { CopyableValue } from '../components/copy-button';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction, useAsync } from '../components/use-async';
import { useApi } from '../session/session';
import { WebhookDeliveries } from './webhook-deliveries';

/** Settings → Webhooks: endpoints, their secrets, and what was delivered to them. */
export function WebhooksPage() {
  const api = useApi();
  const endpoints = useAsync(() => api.listWebhooks(), 'webhooks');
  return (
    <section>
      <PageHeader title="Settings → Webhooks">
        Parley posts every event (a customer message with your agent’s reply, statuses, leads, bookings) to these URLs, signed with the
        endpoint’s secret (Standard Webhooks).
      </PageHeader>
      <AddWebhook onAdded={endpoints.reload} />
      <AsyncView state={endpoints} what="webhook endpoints" isEmpty={(p) => p.data.length === 0} empty="No webhook endpoint yet.">
        {(page) => page.data.map((e) => <EndpointCard key={e.id} endpoint={e} onChange={endpoints.reload} />)}
      </AsyncView>
    </section>
  );
}

function AddWebhook({ onAdded }: { onAdded(): void }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENTS]);
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const endpoint = await action.run(() => api.createWebhook({ url: url.trim(), description: description.trim() || undefined, events }));
    if (!endpoint) return;
    setCreated({ url: endpoint.url, secret: endpoint.secret });
    setUrl('');
    setDescription('');
    onAdded();
  };
  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label="Add a webhook endpoint">
      <h2>Add an endpoint</h2>
      <label>
        URL
        <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="https://example.com/parley-events" />
      </label>
      <label>
        Description <span className="muted">(optional)</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
      </label>
      <fieldset className="choices">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((type) => (
          <label key={type} className="checkbox">
            <input type="checkbox" checked={events.includes(type)} onChange={() => setEvents((ev) => (ev.includes(type) ? ev.filter((x) => x !== type) : [...ev, type]))} />
            {type}
          </label>
        ))}
      </fieldset>
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending || events.length === 0}>
        Add endpoint
      </button>
      {created && (
        <div className="notice notice-success" role="status">
          Added {created.url}. Verify signatures with this secret (you can reveal it again later):
          <dl>
            <CopyableValue label="Signing secret" value={created.secret} />
          </dl>
        </div>
      )}
    </form>
  );
}

function EndpointCard({ endpoint, onChange }: { endpoint: WebhookEndpoint; onChange(): void }) {
  const api = useApi();
  const [secret, setSecret] = useState<string>();
  const [note, setNote] = useState<string>();
  const [since, setSince] = useState(() => new Date(Date.now() - 3_600_000).toISOString().slice(0, 16));
  const action = useAction();
  const act = async (what: () => Promise<string | undefined>) => {
    setNote(undefined);
    const said = await action.run(what);
    if (said) setNote(said);
  };
  return (
    <article className="card" aria-label={`Webhook ${endpoint.url}`} data-testid="webhook-endpoint">
      <h2 className="url">{endpoint.url}</h2>
      <p className="muted">
        {endpoint.description ? `${endpoint.description} · ` : ''}
        {endpoint.enabled ? 'enabled' : 'disabled'} · {endpoint.events.join(', ')}
      </p>
      {secret && (
        <dl>
          <CopyableValue label="Signing secret" value={secret} />
        </dl>
      )}
      <div className="row wrap">
        <button type="button" className="secondary" onClick={() => void act(async () => void setSecret((await api.webhookSecret(endpoint.id)).secret))}>
          Reveal secret
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void act(async () => {
              if (!window.confirm('Rotate the secret? The old one keeps signing for 24 hours.')) return undefined;
              setSecret((await api.rotateWebhookSecret(endpoint.id)).secret);
              return 'New secret made; the old one keeps signing for 24 hours.';
            })
          }
        >
          Rotate secret
        </button>
        <button type="button" className="secondary" onClick={() => void act(async () => `Test event queued (${(await api.testWebhook(endpoint.id)).event_id}).`)}>
          Send a test event
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void act(async () => {
              await api.updateWebhook(endpoint.id, { enabled: !endpoint.enabled });
              onChange();
              return undefined;
            })
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            void act(async () => {
              if (!window.confirm(`Delete the endpoint ${endpoint.url}?`)) return undefined;
              await api.deleteWebhook(endpoint.id);
              onChange();
              return undefined;
            })
          }
        >
          Delete
        </button>
      </div>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => `${(await api.replayWebhook(endpoint.id, new Date(since).toISOString())).deliveries} event(s) queued again.`);
        }}
      >
        <label>
          Replay events since
          <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
        </label>
        <button type="submit" className="secondary">
          Replay
        </button>
      </form>
      <ErrorNotice error={action.error} />
      {note && (
        <p className="notice" role="status">
          {note}
        </p>
      )}
      <WebhookDeliveries endpointId={endpoint.id} />
    </article>
  );
}
