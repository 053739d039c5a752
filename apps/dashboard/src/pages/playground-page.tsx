import { Fragment, useEffect, useRef, useState, type FormEvent } from 'react';
import type { Channel, PlaygroundMessage, PlaygroundWrite, WebhookDelivery } from '../api';
import { channelLabel } from '../components/channel';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime } from '../components/format';
import { MessageContent, type MessageParts } from '../components/message-content';
import { DELIVERIES_LIVE, MESSAGES_LIVE, concernsCustomer } from '../components/live-refresh';
import { PageHeader } from '../components/page-header';
import { WhyThisAnswer } from './playground-why';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { Link } from '../router';
import { useCan } from '../session/permissions';
import { useApi } from '../session/session';


interface ChatLine {
  id: string;
  who: 'customer' | 'business';
  text: string;
  /** What the business sent beyond text (media, a location, buttons, a template), in the Cloud API's shape. */
  parts?: MessageParts;
  at: number;
}

/** What the customer received, as the chat shows it: its text, media (with caption), location, offered choices, or template. */
function partsOfCloudMessage(m: PlaygroundMessage): MessageParts {
  const media = m.image ?? m.video ?? m.audio ?? m.document ?? m.sticker;
  if (media) return { text: `(${m.type})`, type: m.type, media: { caption: media.caption ?? null, filename: media.filename ?? null, mime_type: media.mime_type } };
  if (m.location) return { text: '(location)', location: m.location };
  if (m.interactive) {
    const action = m.interactive.action;
    const options = [...(action?.buttons ?? []).map((b) => b.reply?.title), ...(action?.sections ?? []).flatMap((s) => (s.rows ?? []).map((r) => r.title))];
    return { text: m.interactive.body?.text ?? '(interactive)', options: options.filter((o): o is string => typeof o === 'string') };
  }
  if (m.template) return { text: `Template “${m.template.name}”${m.template.language?.code ? ` (${m.template.language.code})` : ''}` };
  return { text: m.text?.body ?? `(${m.type})` };
}

/** The Cloud API's image limits (CONTRACT.md §13): the sandbox hands the photo to the platform as WhatsApp would. */
type PhotoType = NonNullable<PlaygroundWrite['media']>['mime_type'];
const PHOTO_TYPES: readonly PhotoType[] = ['image/jpeg', 'image/png'];
const isPhotoType = (type: string): type is PhotoType => (PHOTO_TYPES as readonly string[]).includes(type);
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The photo's type, when WhatsApp would take it. */
function checkPhoto(file: File): PhotoType {
  if (!isPhotoType(file.type)) throw new Error(`${file.name} is not a JPEG or PNG photo.`);
  if (file.size > PHOTO_MAX_BYTES) throw new Error(`${file.name} is larger than WhatsApp's 5 MB for a photo.`);
  return file.type;
}

/** The customer's text a business line answers: the line just before it, when the customer wrote words there. */
function answeredQuestion(lines: ChatLine[], index: number): string | undefined {
  const line = lines[index];
  const before = lines[index - 1];
  if (line.who !== 'business' || before?.who !== 'customer') return undefined;
  return before.text.trim() || undefined;
}

const randomCustomer = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;

/** The customer played on a number with its agent, and what they wrote (the sandbox keeps only what they received). */
interface PlayedCustomer {
  /** The storage key it is kept under (its number and agent). */
  key: string;
  customer: string;
  written: ChatLine[];
}

const KEPT_LINES = 100;
const storageKey = (channel: Channel) => `parley.playground:${channel.id}:${channel.agent ?? 'default'}`;

/**
 * The same test customer on every visit (per number and agent), kept in this browser, so the conversation with the
 * agent goes on where it was left; "New customer" starts another one.
 */
function loadPlayed(key: string): PlayedCustomer {
  try {
    const kept = JSON.parse(window.localStorage.getItem(key) ?? 'null') as PlayedCustomer | null;
    if (kept && typeof kept.customer === 'string' && Array.isArray(kept.written)) return { ...kept, key };
  } catch {
    // unreadable (or storage refused): a new customer
  }
  return { key, customer: randomCustomer(), written: [] };
}

function savePlayed(played: PlayedCustomer): void {
  try {
    window.localStorage.setItem(played.key, JSON.stringify({ ...played, written: played.written.slice(-KEPT_LINES) }));
  } catch {
    // storage full or refused: the chat still works, it is just not kept
  }
}

/** The channels a playground customer can write on (the sandbox plays WhatsApp and SMS customers). */
const PLAYABLE = ['whatsapp', 'sms'];
const digits = (phone: string) => phone.replace(/\D/g, '');

/** Chat as a customer through the sandbox, on WhatsApp or by SMS; the agent's reply and the webhook events appear live. */
export function PlaygroundPage() {
  const api = useApi();
  const channels = useLiveQuery(['playground', 'channels'], async () => {
    const page = await api.listChannels();
    return { ...page, data: page.data.filter((c) => PLAYABLE.includes(c.channel)) };
  });
  return (
    <section>
      <PageHeader title="Playground">Write to your number as a customer would, on WhatsApp or by SMS (through the local sandbox).</PageHeader>
      <AsyncView state={channels} what="your numbers" isEmpty={(p) => p.data.length === 0} empty={<Link to="/channels">Connect a number first.</Link>}>
        {(page) => <Chat channels={page.data} />}
      </AsyncView>
    </section>
  );
}

function Chat({ channels }: { channels: Channel[] }) {
  const api = useApi();
  // the webhook deliveries are a developer's view: a member whose role cannot read webhooks does not ask for them
  const can = useCan();
  const [channelId, setChannelId] = useState(channels.find((c) => c.is_default)?.id ?? channels[0].id);
  const [startedAt] = useState(() => new Date().toISOString());
  const [text, setText] = useState('');
  const [queued, setQueued] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const action = useAction();
  const channel = channels.find((c) => c.id === channelId) ?? channels[0];
  const sms = channel.channel === 'sms';
  const key = storageKey(channel);
  const [played, setPlayed] = useState(() => loadPlayed(key));
  // Another number (or its agent changed): its own customer, adjusted during render so the old one is never saved there.
  if (played.key !== key) setPlayed(loadPlayed(key));
  useEffect(() => savePlayed(played), [played]);
  const { customer, written } = played;

  // The agent's reply reaches the sandbox just before its `sent` status: that event (or a later status) refreshes the chat.
  const replies = useLiveQuery(['playground', 'messages', customer], () => api.playgroundMessages(customer), { ...MESSAGES_LIVE, filter: (event) => concernsCustomer(event, customer) });
  const lines: ChatLine[] = [
    ...written,
    ...(replies.data?.data ?? [])
      .filter((m) => (sms ? m.channel === 'sms' && digits(m.from ?? '') === digits(channel.phone_number) : m.channel !== 'sms' && m.phone_number_id === channel.phone_number_id))
      .map((m) => {
        const parts = partsOfCloudMessage(m);
        return { id: m.id, who: 'business' as const, text: parts.text, parts, at: Date.parse(m.timestamp) };
      }),
  ].sort((a, b) => a.at - b.at);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const message = text;
    const attached = photo;
    const caption = message.trim();
    // Stamped before the write: the agent may answer (and the sandbox record the reply) before this request returns.
    const writtenAt = Date.now();
    const answer = await action.run(async () => {
      if (!attached) return api.playgroundWrite({ from: customer, to: channel.phone_number, text: message, ...(sms ? { channel: 'sms' as const } : {}) });
      const mime_type = checkPhoto(attached);
      const media = { base64: await base64Of(attached), mime_type };
      return api.playgroundWrite({ from: customer, to: channel.phone_number, type: 'image', media, ...(caption ? { caption } : {}) });
    });
    if (!answer) return;
    const line: ChatLine = attached
      ? { id: answer.id, who: 'customer', text: caption, parts: { text: caption, type: 'image', media: { mime_type: attached.type, caption: caption || null, filename: attached.name } }, at: writtenAt }
      : { id: answer.id, who: 'customer', text: message, at: writtenAt };
    setPlayed((p) => ({ ...p, written: [...p.written, line] }));
    setQueued(answer.queued === true);
    setText('');
    setPhoto(null);
    if (photoInput.current) photoInput.current.value = '';
    replies.reload();
  };

  return (
    <div className="split">
      <section className="card phone" aria-label="Chat">
        <div className="row wrap">
          <label>
            Your business number
            <select
              value={channelId}
              onChange={(e) => {
                setChannelId(e.target.value);
                setPhoto(null);
              }}
            >
              {/* One group per channel the customer writes on: WhatsApp, SMS. */}
              {PLAYABLE.filter((kind) => channels.some((c) => c.channel === kind)).map((kind) => (
                <optgroup key={kind} label={channelLabel(kind)}>
                  {channels
                    .filter((c) => c.channel === kind)
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.phone_number} ({c.provider}
                        {c.agent ? `, ${c.agent}` : ''})
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          </label>
          <p className="muted">
            You are the customer <strong data-testid="playground-customer">{customer}</strong>{' '}
            <button type="button" className="secondary button-small" onClick={() => setPlayed({ key, customer: randomCustomer(), written: [] })}>
              New customer
            </button>
          </p>
        </div>
        <ol className="chat" aria-live="polite" aria-label="Conversation">
          {lines.length === 0 && <li className="muted">Say hello to your AI agent.</li>}
          {lines.map((l, i) => {
            const question = answeredQuestion(lines, i);
            return (
              <Fragment key={l.id}>
                <li className={`bubble bubble-${l.who === 'customer' ? 'customer' : 'agent'}`} data-testid={`chat-${l.who}`}>
                  {l.parts ? <MessageContent parts={l.parts} /> : <p>{l.text}</p>}
                </li>
                {question && (
                  <li className="why-answer">
                    <WhyThisAnswer channel={channel} question={question} />
                  </li>
                )}
              </Fragment>
            );
          })}
        </ol>
        {queued && (
          <p className="muted" role="status" data-testid="playground-queued">
            Queued: the platform did not take your message yet. WhatsApp keeps delivering it, and the reply follows.
          </p>
        )}
        <ErrorNotice error={action.error ?? replies.error} />
        <form className="row" onSubmit={(e) => void submit(e)}>
          <label className="grow">
            <span className="visually-hidden">{photo ? 'Caption' : 'Message'}</span>
            <input
              value={text}
              onChange={(e) => setText(e.target.value)}
              required={!photo}
              maxLength={photo ? 1024 : sms ? 1600 : 4096}
              placeholder={photo ? 'Add a caption (optional)' : 'Type a message'}
            />
          </label>
          {!sms && (
            <label className="button-link button-small file-pick">
              {photo ? `Photo: ${photo.name}` : 'Attach a photo'}
              <input
                ref={photoInput}
                className="visually-hidden"
                type="file"
                accept={PHOTO_TYPES.join(',')}
                onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
                data-testid="playground-photo"
              />
            </label>
          )}
          <button type="submit" disabled={action.pending}>
            Send
          </button>
        </form>
      </section>
      {can('webhooks.manage') && <WebhookEvents since={startedAt} />}
    </div>
  );
}

/** The webhook deliveries that happened since the playground opened, across the tenant's endpoints. */
function WebhookEvents({ since }: { since: string }) {
  const api = useApi();
  const events = useLiveQuery(
    ['playground', 'webhook-events', since],
    async () => {
      const endpoints = (await api.listWebhooks()).data;
      const pages = await Promise.all(endpoints.map(async (e) => ({ endpoint: e, deliveries: (await api.deliveries(e.id)).data })));
      return pages.flatMap((p) => p.deliveries.filter((d) => d.created_at >= since).map((d) => ({ url: p.endpoint.url, delivery: d })));
    },
    DELIVERIES_LIVE,
  );
  return (
    <section className="card" aria-labelledby="events-title">
      <div className="row">
        <h2 id="events-title">Webhook events</h2>
        <button type="button" className="secondary button-small" onClick={events.reload}>
          Refresh
        </button>
      </div>
      <AsyncView
        state={events}
        what="webhook events"
        isEmpty={(list) => list.length === 0}
        empty={
          <>
            No events yet. They go to your <Link to="/webhooks">webhook endpoints</Link>.
          </>
        }
      >
        {(list) => (
          <ul className="list" aria-live="polite">
            {list.map(({ url, delivery }) => (
              <EventLine key={delivery.id} url={url} delivery={delivery} />
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

function EventLine({ url, delivery }: { url: string; delivery: WebhookDelivery }) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <li data-testid="playground-event" data-event-type={delivery.event_type} data-status={delivery.status}>
      <strong>{delivery.event_type}</strong> <span className={`status status-${delivery.status}`}>{delivery.status}</span>
      <span className="muted block">
        → {url} {last ? `· ${last.status_code ?? 'no response'} in ${last.duration_ms} ms` : ''} · {formatTime(delivery.created_at)}
      </span>
    </li>
  );
}

