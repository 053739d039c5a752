import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEndpoint, type WebhookEventType } from '../api';
import { CopyableValue } from '../components/copy-button';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { useLiveQuery } from '../components/live-query';
import { countOf } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { WebhookDeliveries } from './webhook-deliveries';

/** Settings → Webhooks: endpoints, their secrets, and what was delivered to them. */
export function WebhooksPage() {
  const api = useApi();
  const endpoints = useLiveQuery(['webhooks'], () => api.listWebhooks());
  return (
    <section>
      <PageHeader title="Webhooks">
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
  const [draft, setDraft] = useState<EndpointDraft>({ url: '', description: '', events: [...WEBHOOK_EVENTS] });
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const endpoint = await action.run(() => api.createWebhook({ url: draft.url.trim(), description: draft.description.trim() || undefined, events: draft.events }));
    if (!endpoint) return;
    setCreated({ url: endpoint.url, secret: endpoint.secret });
    setDraft((d) => ({ ...d, url: '', description: '' }));
    onAdded();
  };
  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label="Add a webhook endpoint">
      <h2>Add an endpoint</h2>
      <EndpointFields draft={draft} onChange={setDraft} action={action} urlPlaceholder="https://example.com/parley-events" />
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending || draft.events.length === 0}>
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

/** An endpoint as its add and edit forms hold it. */
interface EndpointDraft {
  url: string;
  description: string;
  events: WebhookEventType[];
}

/** What an endpoint is added and edited with: its URL, description and events, each field with its error. */
function EndpointFields({ draft, onChange, action, urlPlaceholder }: { draft: EndpointDraft; onChange(draft: EndpointDraft): void; action: ReturnType<typeof useAction>; urlPlaceholder?: string }) {
  return (
    <>
      <label>
        URL
        <input type="url" value={draft.url} onChange={(e) => onChange({ ...draft, url: e.target.value })} required placeholder={urlPlaceholder} {...action.bind('url')} />
      </label>
      {action.fieldError('url')}
      <label>
        Description <span className="muted">(optional)</span>
        <input value={draft.description} onChange={(e) => onChange({ ...draft, description: e.target.value })} maxLength={500} {...action.bind('description')} />
      </label>
      {action.fieldError('description')}
      <EventChoices events={draft.events} onChange={(events) => onChange({ ...draft, events })} />
    </>
  );
}

/** The event types an endpoint receives, one checkbox each. */
function EventChoices({ events, onChange }: { events: WebhookEventType[]; onChange(events: WebhookEventType[]): void }) {
  return (
    <fieldset className="choices">
      <legend>Events</legend>
      {WEBHOOK_EVENTS.map((type) => (
        <label key={type} className="checkbox">
          <input type="checkbox" checked={events.includes(type)} onChange={() => onChange(events.includes(type) ? events.filter((x) => x !== type) : [...events, type])} />
          {type}
        </label>
      ))}
    </fieldset>
  );
}

/** Changes an endpoint's URL, description and events (a PATCH; its secret and deliveries stay). */
function EditWebhook({ endpoint, onSaved, onCancel }: { endpoint: WebhookEndpoint; onSaved(): void; onCancel(): void }) {
  const api = useApi();
  const [draft, setDraft] = useState<EndpointDraft>({ url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events });
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() => api.updateWebhook(endpoint.id, { url: draft.url.trim(), description: draft.description.trim(), events: draft.events }));
    if (saved) onSaved();
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label={`Edit webhook ${endpoint.url}`}>
      <EndpointFields draft={draft} onChange={setDraft} action={action} />
      <ErrorNotice error={action.error} />
      <div className="row wrap">
        <button type="submit" disabled={action.pending || draft.events.length === 0}>
          {action.pending ? 'Saving…' : 'Save endpoint'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function EndpointCard({ endpoint, onChange }: { endpoint: WebhookEndpoint; onChange(): void }) {
  const api = useApi();
  const [secret, setSecret] = useState<string>();
  const [note, setNote] = useState<string>();
  const [since, setSince] = useState(() => localDateTime(new Date(Date.now() - 3_600_000)));
  const [editing, setEditing] = useState(false);
  // Bumped after "Send a test event": the deliveries list looks again while the test is delivered.
  const [tested, setTested] = useState(0);
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
      {editing && (
        <EditWebhook
          endpoint={endpoint}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setNote('Endpoint saved.');
            onChange();
          }}
        />
      )}
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
        {!editing && (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void act(async () => {
              const { event_id } = await api.testWebhook(endpoint.id);
              setTested((n) => n + 1);
              return `Test event queued (${event_id}).`;
            })
          }
        >
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
          const from = new Date(since);
          if (!window.confirm(`Send again every event since ${from.toLocaleString()} to ${endpoint.url}? Your endpoint receives each one a second time.`)) return;
          void act(async () => `${countOf((await api.replayWebhook(endpoint.id, from.toISOString())).deliveries, 'event')} queued again.`);
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
      <WebhookDeliveries endpointId={endpoint.id} refreshAfter={tested} />
    </article>
  );
}

/** A date as the value of a `datetime-local` input: the reader's local time, to the minute. */
function localDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
