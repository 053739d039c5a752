import { useState, type FormEvent } from 'react';
import type { Channel, Provider } from '../../api';
import { CopyableValue } from '../../components/copy-button';
import { ErrorNotice } from '../../components/feedback';
import { normalisePhone } from '../../components/phone';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';

const PROVIDERS: { value: Provider; label: string; hint: string }[] = [
  { value: 'meta', label: 'Meta (WhatsApp Cloud API)', hint: 'Connect your own business number with Meta’s embedded signup.' },
  { value: '360dialog', label: '360dialog', hint: 'A number you host with 360dialog: its phone number and API key.' },
  { value: 'sandbox', label: 'Sandbox', hint: 'A test number of the local WhatsApp sandbox: nothing leaves this machine.' },
];

/** Connects a WhatsApp number: Meta's embedded signup, a 360dialog number, or a sandbox number. */
export function ConnectWhatsapp({ onConnected }: { onConnected(): void }) {
  const [provider, setProvider] = useState<Provider>('meta');
  return (
    <div className="connect-form">
      <fieldset className="choices">
        <legend>WhatsApp provider</legend>
        {PROVIDERS.map((p) => (
          <label key={p.value} className="radio">
            <input type="radio" name="whatsapp-provider" value={p.value} checked={provider === p.value} onChange={() => setProvider(p.value)} />
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
    </div>
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
