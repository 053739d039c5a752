import { useState, type FormEvent } from 'react';
import type { Agent, Channel, Provider } from '../api';
import { CopyableValue } from '../components/copy-button';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { normalisePhone } from '../components/phone';
import { useAction, useAsync } from '../components/use-async';
import { useApi } from '../session/session';

const PROVIDERS: { value: Provider; label: string; hint: string }[] = [
  { value: 'meta', label: 'Meta (WhatsApp Cloud API)', hint: 'Connect your own business number with Meta’s embedded signup.' },
  { value: '360dialog', label: '360dialog', hint: 'A number you host with 360dialog: its phone number and API key.' },
  { value: 'sandbox', label: 'Sandbox', hint: 'A test number of the local WhatsApp sandbox: nothing leaves this machine.' },
];

/** WhatsApp numbers: connect one (choosing the provider), see each number and the agent that answers it. */
export function ChannelsPage() {
  const api = useApi();
  const channels = useAsync(() => api.listChannels(), 'channels');
  const agents = useAsync(() => api.listAgents(), 'agents');

  return (
    <section>
      <PageHeader title="WhatsApp numbers">The numbers your customers write to, and the agent that answers on each.</PageHeader>
      <AsyncView state={channels} what="numbers" isEmpty={(p) => p.data.length === 0} empty="No number connected yet. Connect one below.">
        {(page) => <ChannelTable channels={page.data} agents={agents.data?.data ?? []} onChange={channels.reload} />}
      </AsyncView>
      <ConnectNumber onConnected={channels.reload} />
    </section>
  );
}

function ChannelTable({ channels, agents, onChange }: { channels: Channel[]; agents: Agent[]; onChange(): void }) {
  const api = useApi();
  const action = useAction();
  const oldest = [...agents].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
  const setAgent = async (channel: Channel, agent: string) => {
    await action.run(() => api.updateChannel(channel.id, { agent: agent === '' ? null : agent }));
    onChange();
  };
  const disconnect = async (channel: Channel) => {
    if (!window.confirm(`Disconnect ${channel.phone_number}? Customers who write to it are no longer answered.`)) return;
    await action.run(() => api.disconnectChannel(channel.id));
    onChange();
  };
  return (
    <>
      <ErrorNotice error={action.error} />
      <div className="table-wrap">
        <table className="stacked-table">
          <caption className="visually-hidden">Connected WhatsApp numbers</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Answering agent</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.id} data-testid={`channel-${c.phone_number}`}>
                <td data-label="Number">
                  {c.phone_number} {c.is_default && <span className="badge">default</span>}
                </td>
                <td data-label="Provider">{c.provider}</td>
                <td data-label="Status">
                  <span className={`status status-${c.status}`}>{c.status}</span>
                </td>
                <td data-label="Answering agent">
                  <label className="visually-hidden" htmlFor={`agent-${c.id}`}>
                    Agent answering {c.phone_number}
                  </label>
                  <select id={`agent-${c.id}`} value={c.agent ?? ''} onChange={(e) => void setAgent(c, e.target.value)} disabled={action.pending}>
                    <option value="">{oldest ? `Default (${oldest.name})` : 'No agent yet'}</option>
                    {agents.map((a) => (
                      <option key={a.id} value={a.name}>
                        {a.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button type="button" className="danger button-small" onClick={() => void disconnect(c)} disabled={action.pending} aria-label={`Disconnect ${c.phone_number}`}>
                    Disconnect
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ConnectNumber({ onConnected }: { onConnected(): void }) {
  const [provider, setProvider] = useState<Provider>('meta');
  return (
    <section className="card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a number</h2>
      <fieldset className="choices">
        <legend>Provider</legend>
        {PROVIDERS.map((p) => (
          <label key={p.value} className="radio">
            <input type="radio" name="provider" value={p.value} checked={provider === p.value} onChange={() => setProvider(p.value)} />
            <span>
              <strong>{p.label}</strong>
              <span className="muted block">{p.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {provider === 'meta' && <EmbeddedSignup onConnected={onConnected} />}
      {provider === '360dialog' && <ThreeSixtyDialogForm onConnected={onConnected} />}
      {provider === 'sandbox' && <SandboxNumberForm onConnected={onConnected} />}
    </section>
  );
}

const randomDigits = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join('');

/**
 * Meta's embedded signup. In production Meta's popup (Facebook Login for Business) returns a code, the WhatsApp
 * business account id and the phone number id; here the WhatsApp sandbox plays that popup, and the server side
 * (code exchange, subscription, registration) runs for real against it.
 */
function EmbeddedSignup({ onConnected }: { onConnected(): void }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [wabaId, setWabaId] = useState(() => randomDigits(15));
  const [phoneNumberId, setPhoneNumberId] = useState(() => randomDigits(15));
  const [connected, setConnected] = useState<Channel>();
  const action = useAction();

  const finish = async (event: FormEvent) => {
    event.preventDefault();
    const channel = await action.run(() => api.embeddedSignup({ code: `sandbox-${randomDigits(12)}`, waba_id: wabaId, phone_number_id: phoneNumberId }));
    if (!channel) return;
    setConnected(channel);
    setOpen(false);
    onConnected();
  };

  if (!open) {
    return (
      <div>
        {connected && (
          <p className="notice notice-success" role="status">
            Connected {connected.phone_number} (Meta).
          </p>
        )}
        <button type="button" onClick={() => setOpen(true)}>
          Start embedded signup
        </button>
      </div>
    );
  }
  return (
    <form className="form signup-window" onSubmit={(e) => void finish(e)} aria-label="Embedded signup">
      <p className="muted">
        Development: the WhatsApp sandbox plays Meta’s signup window. It hands back your WhatsApp business account and number ids.
      </p>
      <label>
        WhatsApp business account id
        <input value={wabaId} onChange={(e) => setWabaId(e.target.value)} required pattern="\d+" inputMode="numeric" {...action.bind('waba_id')} />
      </label>
      {action.fieldError('waba_id')}
      <label>
        Phone number id
        <input value={phoneNumberId} onChange={(e) => setPhoneNumberId(e.target.value)} required pattern="\d+" inputMode="numeric" {...action.bind('phone_number_id')} />
      </label>
      {action.fieldError('phone_number_id')}
      <ErrorNotice error={action.error} />
      <div className="row">
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Connecting…' : 'Finish signup'}
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ThreeSixtyDialogForm({ onConnected }: { onConnected(): void }) {
  const api = useApi();
  const [phone, setPhone] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [inboundToken, setInboundToken] = useState<string>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const channel = await action.run(() => api.connectChannel({ provider: '360dialog', phone_number: normalisePhone(phone), access_token: apiKey.trim() }));
    if (!channel) return;
    setInboundToken(channel.inbound_token);
    onConnected();
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)}>
      <label>
        Phone number (with its country code, e.g. +1 415 555 0100)
        <input value={phone} onChange={(e) => setPhone(e.target.value)} required type="tel" {...action.bind('phone_number')} />
      </label>
      {action.fieldError('phone_number')}
      <label>
        360dialog API key
        <input value={apiKey} onChange={(e) => setApiKey(e.target.value)} required type="password" autoComplete="off" {...action.bind('access_token')} />
      </label>
      {action.fieldError('access_token')}
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        Connect
      </button>
      {inboundToken && (
        <div className="notice notice-warning" role="alert">
          Set this token as the <code>X-Channel-Token</code> header of your 360dialog webhook. It is shown only once.
          <dl>
            <CopyableValue label="Inbound token" value={inboundToken} />
          </dl>
        </div>
      )}
    </form>
  );
}

function SandboxNumberForm({ onConnected }: { onConnected(): void }) {
  const api = useApi();
  const action = useAction();
  const [added, setAdded] = useState<Channel>();
  const add = async () => {
    const channel = await action.run(() => api.connectChannel({ provider: 'sandbox' }));
    if (!channel) return;
    setAdded(channel);
    onConnected();
  };
  return (
    <div>
      <ErrorNotice error={action.error} />
      {added && (
        <p className="notice notice-success" role="status">
          Added sandbox number {added.phone_number}.
        </p>
      )}
      <button type="button" onClick={() => void add()} disabled={action.pending}>
        Add a sandbox number
      </button>
    </div>
  );
}
