import { useState, type FormEvent } from 'react';
import type { Channel } from '../../api';
import { useLiveQuery } from '../../components/live-query';
import { MESSAGES_LIVE } from '../../components/live-refresh';
import { normalisePhone } from '../../components/phone';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { SendErrorNotice } from '../billing/insufficient-funds-notice';

/** What each status of the test message means to the person who sent it. */
const PROGRESS: Record<string, string> = {
  sent: 'sent, waiting for the provider to deliver it…',
  delivered: 'delivered. The channel works.',
  read: 'delivered and read. The channel works.',
};

/**
 * Tries a channel: a short text from it to the owner's own phone or address, followed live to "delivered" (or the
 * provider's reason it failed). A voice number is tried by calling it.
 */
export function ChannelTest({ channel, name, onClose }: { channel: Channel; name: string; onClose(): void }) {
  const api = useApi();
  const action = useAction();
  const [to, setTo] = useState('');
  const [sent, setSent] = useState<{ id: string; to: string }>();
  const email = channel.channel === 'email';
  const label = `Test ${name}`;

  if (channel.channel === 'voice') {
    return (
      <section className="card channel-test" aria-label={label}>
        <p>
          Call <strong>{name}</strong> from any phone: your AI agent answers with its greeting, and asking for a person puts you through.
        </p>
        <button type="button" className="secondary button-small" onClick={onClose}>
          Close
        </button>
      </section>
    );
  }
  const kind = channel.channel;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const recipient = email ? to.trim() : normalisePhone(to);
    const message = `This is a test message from your ${email ? 'email address' : kind === 'sms' ? 'SMS number' : 'WhatsApp number'} ${name}. Reply to it and your AI agent answers.`;
    const result = await action.run(() => api.sendOn(kind, { to: recipient, from: name, message, subject: email ? 'Test message' : undefined }));
    if (result) setSent({ id: result.message_id, to: recipient });
  };

  return (
    <form className="card form channel-test" aria-label={label} onSubmit={(e) => void submit(e)}>
      <label>
        {email ? 'Send a test to this address' : 'Send a test to this phone number'}
        <input
          type={email ? 'email' : 'tel'}
          value={to}
          required
          autoComplete={email ? 'email' : 'tel'}
          placeholder={email ? 'you@example.com' : '+1 415 555 0123'}
          onChange={(e) => setTo(e.target.value)}
          {...action.bind('to')}
        />
        {action.fieldError('to')}
      </label>
      <SendErrorNotice action={action} what="this test message" />
      <div className="row wrap">
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Sending…' : 'Send test'}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {sent && <TestProgress key={sent.id} id={sent.id} to={sent.to} />}
    </form>
  );
}

/** The test message's way to its recipient, as its status events arrive. */
function TestProgress({ id, to }: { id: string; to: string }) {
  const api = useApi();
  const message = useLiveQuery(['messages', 'one', id], () => api.message(id), { ...MESSAGES_LIVE, filter: (event) => event.data.message_id === id });
  const status = message.data?.status ?? 'sent';
  const failed = status === 'failed';
  const reason = message.data?.error ? `${message.data.error.title} (${message.data.error.code})` : 'the provider refused it';
  return (
    <p className={`notice ${failed ? 'notice-error' : status === 'sent' ? '' : 'notice-success'}`} role="status" data-status={status}>
      Test to {to}: {failed ? `failed: ${reason}.` : (PROGRESS[status] ?? status)}
    </p>
  );
}
