import { useState, type FormEvent } from 'react';
import type { Message } from '../api';
import { AsyncView } from '../components/feedback';
import { formatTime } from '../components/format';
import { LiveIndicator } from '../components/live-indicator';
import { MESSAGES_LIVE } from '../components/live-refresh';
import { PageHeader } from '../components/page-header';
import { normalisePhone } from '../components/phone';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { SendErrorNotice } from './billing/insufficient-funds-notice';

/** Send a WhatsApp message, and the live log of every message with its status. */
export function MessagesPage() {
  const api = useApi();
  const [direction, setDirection] = useState<'' | 'outbound' | 'inbound'>('');
  const log = useLiveQuery(['messages', { direction }], () => api.listMessages({ direction: direction || undefined }), MESSAGES_LIVE, { keepPrevious: true });
  return (
    <section>
      <PageHeader title="Messages">The API’s message log: everything sent and received on your channels, statuses updated live; send one to try.</PageHeader>
      <SendMessage onSent={log.reload} />
      <div className="row">
        <h2>Log</h2>
        <label>
          Show
          <select value={direction} onChange={(e) => setDirection(e.target.value as typeof direction)}>
            <option value="">all messages</option>
            <option value="outbound">sent</option>
            <option value="inbound">received</option>
          </select>
        </label>
        <LiveIndicator />
      </div>
      <AsyncView state={log} what="messages" isEmpty={(p) => p.data.length === 0} empty="No messages yet. Send one above, or write to your number from the playground.">
        {(page) => <MessageLog messages={page.data} />}
      </AsyncView>
    </section>
  );
}

function MessageLog({ messages }: { messages: Message[] }) {
  return (
    <ul className="list message-log" aria-live="polite" aria-label="Message log">
      {messages.map((m) => (
        <li key={m.message_id} data-testid="message" data-direction={m.direction} data-status={m.status}>
          <div className="row">
            <span className="muted">
              {m.direction === 'inbound' ? '↘ from' : '↗ to'} {m.direction === 'inbound' ? m.from : m.to}
            </span>
            <span className={`status status-${m.status}`}>{m.status}</span>
          </div>
          <p className="message-text">{m.message}</p>
          <p className="muted small">
            {formatTime(m.created_at)} · {m.status_history.map((s) => s.status).join(' → ')}
            {m.error && <span className="error-text"> · {m.error.title} ({m.error.code})</span>}
          </p>
        </li>
      ))}
    </ul>
  );
}

function SendMessage({ onSent }: { onSent(): void }) {
  const api = useApi();
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  const [sent, setSent] = useState<string>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(undefined);
    const answer = await action.run(() => api.send({ to: normalisePhone(to), message: text }));
    if (!answer) return;
    setSent(answer.message_id);
    setText('');
    onSent();
  };
  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label="Send a message">
      <h2>Send a message</h2>
      <label>
        To (WhatsApp number with its country code, e.g. +1 415 555 0123)
        <input type="tel" value={to} onChange={(e) => setTo(e.target.value)} required autoComplete="tel" {...action.bind('to')} />
      </label>
      {action.fieldError('to')}
      <label>
        Message
        <textarea value={text} onChange={(e) => setText(e.target.value)} required maxLength={4096} rows={2} {...action.bind('message')} />
      </label>
      {action.fieldError('message')}
      <SendErrorNotice action={action} what="this message" />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Sending…' : 'Send'}
      </button>
      {sent && (
        <p className="notice notice-success" role="status">
          Sent ({sent}).
        </p>
      )}
    </form>
  );
}
