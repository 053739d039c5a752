import { useState, type FormEvent, type ReactNode } from 'react';
import type { Channel } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { normalisePhone } from '../../components/phone';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';

/**
 * The connect forms of SMS, email and voice (CONTRACT.md §17): each with its own fields and rules. A real provider
 * (Twilio, an SMTP server) needs its credentials, stored encrypted by the platform; the sandbox needs none and keeps
 * everything on this machine.
 */
type Connected = (channel: Channel) => void;

function ProviderChoice<P extends string>({ name, value, options, onChange }: { name: string; value: P; options: readonly { value: P; label: string; hint: string }[]; onChange: (p: P) => void }) {
  return (
    <fieldset className="choices">
      <legend>Provider</legend>
      {options.map((o) => (
        <label key={o.value} className="radio">
          <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          <span>
            <strong>{o.label}</strong>
            <span className="muted block">{o.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

type PhoneProvider = 'twilio' | 'sandbox';
const PHONE_PROVIDERS = (what: string): { value: PhoneProvider; label: string; hint: string }[] => [
  { value: 'twilio', label: 'Twilio', hint: `A Twilio number you own: its ${what} reach Parley through Twilio.` },
  { value: 'sandbox', label: 'Sandbox', hint: 'A test number of the local sandbox: nothing leaves this machine.' },
];

/** A form's frame: the fields, the refusal if any, the submit button, the confirmation once connected. */
function ConnectFrame({ label, pending, error, done, onSubmit, children }: { label: string; pending: boolean; error?: string; done?: string; onSubmit(e: FormEvent): void; children: ReactNode }) {
  return (
    <form className="form connect-form" aria-label={label} onSubmit={onSubmit}>
      {children}
      <ErrorNotice error={error} />
      <button type="submit" disabled={pending}>
        {pending ? 'Connecting…' : label}
      </button>
      {done && (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      )}
    </form>
  );
}

function TwilioFields({ action, sid, setSid, token, setToken }: { action: ReturnType<typeof useAction>; sid: string; setSid(v: string): void; token: string; setToken(v: string): void }) {
  return (
    <>
      <label>
        Twilio account SID
        <input value={sid} onChange={(e) => setSid(e.target.value)} required autoComplete="off" spellCheck={false} pattern="AC[0-9a-fA-F]{32}" {...action.bind('account_sid')} />
      </label>
      {action.fieldError('account_sid')}
      <label>
        Twilio auth token
        <input value={token} onChange={(e) => setToken(e.target.value)} required type="password" autoComplete="off" {...action.bind('auth_token')} />
      </label>
      {action.fieldError('auth_token')}
    </>
  );
}

export function ConnectSms({ onConnected }: { onConnected: Connected }) {
  const api = useApi();
  const action = useAction();
  const [provider, setProvider] = useState<PhoneProvider>('sandbox');
  const [phone, setPhone] = useState('');
  const [sid, setSid] = useState('');
  const [token, setToken] = useState('');
  const [done, setDone] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { provider, phone_number: normalisePhone(phone), ...(provider === 'twilio' ? { account_sid: sid.trim(), auth_token: token.trim() } : {}) };
    const channel = await action.run(() => api.connectSms(body));
    if (!channel) return;
    setDone(`Connected ${channel.phone_number} for SMS.`);
    setPhone('');
    onConnected(channel);
  };
  return (
    <ConnectFrame label="Connect SMS number" pending={action.pending} error={action.error} done={done} onSubmit={(e) => void submit(e)}>
      <ProviderChoice name="sms-provider" value={provider} options={PHONE_PROVIDERS('text messages')} onChange={(p) => setProvider(p)} />
      <label>
        SMS phone number (with its country code, e.g. +47 912 34 567)
        <input value={phone} onChange={(e) => setPhone(e.target.value)} required type="tel" autoComplete="off" {...action.bind('phone_number')} />
      </label>
      {action.fieldError('phone_number')}
      {provider === 'twilio' && <TwilioFields action={action} sid={sid} setSid={setSid} token={token} setToken={setToken} />}
    </ConnectFrame>
  );
}

type MailProvider = 'smtp' | 'sandbox';
const MAIL_PROVIDERS: { value: MailProvider; label: string; hint: string }[] = [
  { value: 'smtp', label: 'Your mail server (SMTP)', hint: 'Replies are sent through your server; mail to the address reaches Parley’s inbound SMTP.' },
  { value: 'sandbox', label: 'Sandbox', hint: 'The local SMTP sink: mail is recorded, nothing is delivered.' },
];

export function ConnectEmail({ onConnected }: { onConnected: Connected }) {
  const api = useApi();
  const action = useAction();
  const [provider, setProvider] = useState<MailProvider>('sandbox');
  const [address, setAddress] = useState('');
  const [smtpUrl, setSmtpUrl] = useState('');
  const [done, setDone] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { provider, address: address.trim(), ...(provider === 'smtp' ? { smtp_url: smtpUrl.trim() } : {}) };
    const channel = await action.run(() => api.connectEmail(body));
    if (!channel) return;
    setDone(`Connected ${channel.address ?? channel.phone_number} for email.`);
    setAddress('');
    onConnected(channel);
  };
  return (
    <ConnectFrame label="Connect email address" pending={action.pending} error={action.error} done={done} onSubmit={(e) => void submit(e)}>
      <ProviderChoice name="email-provider" value={provider} options={MAIL_PROVIDERS} onChange={(p) => setProvider(p)} />
      <label>
        Email address customers write to
        <input value={address} onChange={(e) => setAddress(e.target.value)} required type="email" autoComplete="off" {...action.bind('address')} />
      </label>
      {action.fieldError('address')}
      {provider === 'smtp' && (
        <>
          <label>
            SMTP server URL (e.g. smtps://user:password@mail.example.com:465)
            <input value={smtpUrl} onChange={(e) => setSmtpUrl(e.target.value)} required type="password" autoComplete="off" spellCheck={false} {...action.bind('smtp_url')} />
          </label>
          {action.fieldError('smtp_url')}
        </>
      )}
    </ConnectFrame>
  );
}

export function ConnectVoice({ onConnected }: { onConnected: Connected }) {
  const api = useApi();
  const action = useAction();
  const [provider, setProvider] = useState<PhoneProvider>('sandbox');
  const [phone, setPhone] = useState('');
  const [forwardTo, setForwardTo] = useState('');
  const [sid, setSid] = useState('');
  const [token, setToken] = useState('');
  const [done, setDone] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      provider,
      phone_number: normalisePhone(phone),
      ...(forwardTo.trim() ? { forward_to: normalisePhone(forwardTo) } : {}),
      ...(provider === 'twilio' ? { account_sid: sid.trim(), auth_token: token.trim() } : {}),
    };
    const channel = await action.run(() => api.connectVoice(body));
    if (!channel) return;
    setDone(`Connected ${channel.phone_number} for voice calls.`);
    setPhone('');
    onConnected(channel);
  };
  return (
    <ConnectFrame label="Connect voice number" pending={action.pending} error={action.error} done={done} onSubmit={(e) => void submit(e)}>
      <ProviderChoice name="voice-provider" value={provider} options={PHONE_PROVIDERS('calls')} onChange={(p) => setProvider(p)} />
      <label>
        Voice phone number (with its country code)
        <input value={phone} onChange={(e) => setPhone(e.target.value)} required type="tel" autoComplete="off" {...action.bind('phone_number')} />
      </label>
      {action.fieldError('phone_number')}
      <label>
        Forward to a person <span className="muted">(optional: the number a caller who asks for a person is put through to)</span>
        <input value={forwardTo} onChange={(e) => setForwardTo(e.target.value)} type="tel" autoComplete="off" {...action.bind('forward_to')} />
      </label>
      {action.fieldError('forward_to')}
      {provider === 'twilio' && <TwilioFields action={action} sid={sid} setSid={setSid} token={token} setToken={setToken} />}
    </ConnectFrame>
  );
}
