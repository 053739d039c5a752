import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Author, ConversationChange, DeliveryStatus, InboxThread, Member, ThreadMessage } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { ChannelBadge } from '../../components/channel';
import { formatTime } from '../../components/format';
import { MessageContent, partsOfPayload, type MessageParts } from '../../components/message-content';
import { useLiveInvalidation, useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { Link } from '../../router';
import { useApi, useMember } from '../../session/session';
import { SendErrorNotice } from '../billing/insufficient-funds-notice';
import { CannedReplyPicker } from './canned-replies';
import { typedShortcut } from './canned-reply-text';
import { ContactPanel } from './contact-panel';
import { ConversationLabels, SlaStatus, TeamChoice } from './conversation-meta';
import { CONTACT_NAME_LIVE, THREAD_LIVE, concernsConversation, threadKey } from './inbox-live';
import { STATE_LABELS, authorLabel, contactName } from './people';
import { ReplyWindow, windowOpen } from './reply-window';
import { TemplateReply } from './template-reply';
import { useTeams } from '../team/teams-data';
import { mentionsToIds, mentionsToNames } from './mentions';
import { MemberOptions } from './member-options';

interface Entry {
  key: string;
  kind: 'message' | 'note';
  text: string;
  /** A message's media, location or tapped reply, when its payload carries them. */
  parts?: MessageParts;
  at: string;
  author: Author;
  /** Our messages to the customer: what became of them (the ticks). */
  delivery?: Pick<ThreadMessage, 'status' | 'error'>;
  /** An email's subject line. */
  subject?: string;
  /** The message's id, for the AI agent's replies (they can be marked wrong). */
  agentReplyId?: string;
}

/** Messages and internal notes in the order they were written (the API lists them apart, each oldest first). */
function timeline(thread: InboxThread): Entry[] {
  const messages: Entry[] = thread.messages.map((m) => ({
    key: `m-${m.message_id}`,
    kind: 'message',
    text: m.text,
    parts: partsOfPayload(m),
    at: m.at,
    author: m.author,
    ...(m.role !== 'customer' ? { delivery: { status: m.status ?? null, error: m.error } } : {}),
    ...(m.subject ? { subject: m.subject } : {}),
    ...(m.author.type === 'agent' ? { agentReplyId: m.message_id } : {}),
  }));
  const notes: Entry[] = thread.notes.map((n) => ({ key: `n-${n.id}`, kind: 'note', text: n.text, at: n.at, author: n.author }));
  return [...messages, ...notes].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** One conversation: its thread, who answers it, the reply box (as the signed-in member), and its contact. Live. */
export function Thread({ id, members }: { id: string; members: readonly Member[] }) {
  const api = useApi();
  const thread = useLiveQuery(threadKey(id), () => api.thread(id), { ...THREAD_LIVE, filter: (event) => concernsConversation(event, id) });
  useLiveInvalidation(threadKey(id), CONTACT_NAME_LIVE);
  return (
    <div className="inbox-thread">
      <p className="inbox-back">
        <Link to="/inbox" current={false}>
          ← All conversations
        </Link>
      </p>
      <AsyncView state={thread} what="the conversation">
        {(t) => (
          <div className="thread-with-contact">
            <ThreadView thread={t} members={members} />
            <ContactPanel thread={t} />
          </div>
        )}
      </AsyncView>
    </div>
  );
}

const TICKS: Record<DeliveryStatus, { icon: string; label: string }> = {
  sent: { icon: '✓', label: 'Sent' },
  delivered: { icon: '✓✓', label: 'Delivered' },
  read: { icon: '✓✓', label: 'Read' },
  failed: { icon: '!', label: 'Not delivered' },
};

/** What became of one of our messages: ✓ sent, ✓✓ delivered, blue ✓✓ read, or why it failed. */
function DeliveryTicks({ delivery }: { delivery: NonNullable<Entry['delivery']> }) {
  const status = delivery.status;
  if (!status) {
    return (
      <span className="ticks ticks-pending small" data-testid="delivery-status" data-status="pending">
        Sending…
      </span>
    );
  }
  const tick = TICKS[status];
  return (
    <span className={`ticks ticks-${status} small`} data-testid="delivery-status" data-status={status}>
      <span aria-hidden="true">{tick.icon}</span> {tick.label}
      {status === 'failed' && delivery.error ? `: ${delivery.error.title}` : ''}
    </span>
  );
}

function ThreadView({ thread, members }: { thread: InboxThread; members: readonly Member[] }) {
  const api = useApi();
  const queries = useQueryClient();
  const onChange = () => void queries.invalidateQueries({ queryKey: ['inbox'] });
  // The 24-hour window is WhatsApp's rule: SMS and email are answered whenever.
  const whatsapp = thread.channel === 'whatsapp';
  const me = useMember();
  const action = useAction();
  const contact = contactName(thread);
  const teams = useTeams().data?.data;
  const team = teams?.find((t) => t.id === thread.team_id);
  // Opening a conversation moves the focus to it (on a phone it is a screen of its own), not to the page's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const update = async (body: Pick<ConversationChange, 'state' | 'assignee'>) => {
    await action.run(() => api.updateConversation(thread.id, body));
    onChange();
  };

  return (
    <article className="card thread" aria-label={`Conversation with ${contact}`}>
      <header className="thread-header">
        <h2 ref={heading} tabIndex={-1}>
          {contact}
        </h2>
        {contact !== thread.customer && <p className="muted small">{thread.customer}</p>}
        {thread.channel === 'email' && (
          <p className="thread-subject" data-testid="thread-subject">
            <span className="muted">Subject:</span> {thread.subject ?? '(no subject)'}
          </p>
        )}
        <p className="small" data-testid="thread-state" data-state={thread.state} data-channel={thread.channel}>
          <ChannelBadge channel={thread.channel} />
          <span className={`badge state-${thread.state}`}>{STATE_LABELS[thread.state]}</span>
          {team && (
            <span className="badge badge-team" data-testid="thread-team-name">
              <span className="visually-hidden">Team: </span>
              {team.name}
            </span>
          )}
          <SlaStatus thread={thread} team={team} />
          {thread.rating && (
            <span className="badge" data-testid="thread-rating" title={`Rated ${new Date(thread.rating.rated_at).toLocaleString()}`}>
              Customer rating: {thread.rating.score}/5
            </span>
          )}
          {thread.state === 'active' && ' The agent answers this customer.'}
          {thread.state === 'handed_off' && ' The agent is silent: a person of the team answers.'}
        </p>
        {whatsapp && <ReplyWindow expiresAt={thread.window_expires_at} />}
        <div className="row wrap thread-actions">
          {thread.state !== 'handed_off' && (
            <button type="button" disabled={action.pending} onClick={() => void update({ state: 'handed_off', ...(me ? { assignee: me.id } : {}) })}>
              Take over
            </button>
          )}
          {thread.state === 'handed_off' && (
            <button type="button" className="secondary" disabled={action.pending} onClick={() => void update({ state: 'active' })}>
              Give back to the agent
            </button>
          )}
          {thread.state !== 'closed' && (
            <button type="button" className="secondary" disabled={action.pending} onClick={() => void update({ state: 'closed' })}>
              Close
            </button>
          )}
          <label className="inline-label">
            Assigned to
            <select value={thread.assignee ?? ''} disabled={action.pending} onChange={(e) => void update({ assignee: e.target.value || null })}>
              <MemberOptions members={members} />
            </select>
          </label>
          <TeamChoice thread={thread} teams={teams} />
        </div>
        <ErrorNotice error={action.error} />
        <ConversationLabels thread={thread} />
      </header>
      <ol className="chat thread-entries" aria-label="Messages and notes">
        {timeline(thread).map((e) => (
          <li
            key={e.key}
            className={e.kind === 'note' ? 'note' : `bubble bubble-${e.author.type === 'api' ? 'member' : e.author.type}`}
            data-testid={e.kind === 'note' ? 'thread-note' : 'thread-message'}
            data-author={e.author.type}
          >
            <p className="small author">
              {e.kind === 'note' ? 'Internal note · ' : ''}
              {authorLabel(e.author, contact, members, me)}
            </p>
            {e.subject && thread.channel === 'email' && <p className="small muted">Subject: {e.subject}</p>}
            {e.parts ? <MessageContent parts={e.parts} /> : <p>{e.kind === 'note' ? mentionsToNames(e.text, members, me?.id) : e.text}</p>}
            <p className="muted small bubble-meta">
              {formatTime(e.at)}
              {e.delivery && <DeliveryTicks delivery={e.delivery} />}
            </p>
            {e.agentReplyId && <MarkWrong conversation={thread.id} messageId={e.agentReplyId} />}
          </li>
        ))}
      </ol>
      <Composer thread={thread} members={members} onSent={onChange} />
    </article>
  );
}

/**
 * An AI agent's reply that answered wrongly: marked, its question joins the agent's unanswered questions (AI agents
 * page), where the owner gives the right answer once.
 */
function MarkWrong({ conversation, messageId }: { conversation: string; messageId: string }) {
  const api = useApi();
  const action = useAction();
  const [marked, setMarked] = useState(false);
  const mark = async () => {
    if (await action.run(() => api.markReply(conversation, messageId, 'wrong'))) setMarked(true);
  };
  if (marked) return <p className="small muted" role="status">Marked wrong: its question is listed under the AI agent’s unanswered questions.</p>;
  return (
    <>
      <button type="button" className="link-button small" disabled={action.pending} onClick={() => void mark()}>
        Wrong answer?
      </button>
      <ErrorNotice error={action.error} />
    </>
  );
}

type Mode = 'reply' | 'note';

/**
 * The reply box (sent to the customer as the member) and internal notes (never sent). Canned replies come in by
 * typing "/" and their shortcut, or from the "Canned replies" button, their variables filled from the contact and you.
 */
function Composer({ thread, members, onSent }: { thread: InboxThread; members: readonly Member[]; onSent(): void }) {
  const api = useApi();
  const me = useMember();
  const [mode, setMode] = useState<Mode>('reply');
  const [text, setText] = useState('');
  // The picker: closed, opened by the button (its own search), or following a "/shortcut" typed in the box.
  const [picker, setPicker] = useState<'closed' | 'button' | 'slash'>('closed');
  const [pickerQuery, setPickerQuery] = useState('');
  const action = useAction();
  const box = useRef<HTMLTextAreaElement>(null);
  const closed = thread.state === 'closed';
  const canReply = !closed && (thread.channel !== 'whatsapp' || windowOpen(thread.window_expires_at));

  const type = (value: string) => {
    setText(value);
    const shortcut = mode === 'reply' ? typedShortcut(value) : undefined;
    if (shortcut !== undefined) {
      setPicker('slash');
      setPickerQuery(shortcut);
    } else if (picker === 'slash') {
      setPicker('closed');
    }
  };
  const insert = (filled: string) => {
    setText((current) => (picker === 'slash' || !current.trim() ? filled : `${current.trimEnd()} ${filled}`));
    setPicker('closed');
    box.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    const done = await action.run<unknown>(() => (mode === 'reply' ? api.reply(thread.id, body) : api.addNote(thread.id, mentionsToIds(body, members))));
    if (done === undefined) return;
    setText('');
    onSent();
    box.current?.focus();
  };

  const label = mode === 'reply' ? 'Reply to the customer' : 'Note for your team (never sent to the customer)';
  return (
    <>
      <form className="form composer" onSubmit={(e) => void submit(e)} aria-label="Write in this conversation">
        <fieldset className="choices composer-mode">
          <legend className="visually-hidden">Write</legend>
          <label className="radio">
            <input type="radio" name="composer-mode" checked={mode === 'reply'} onChange={() => setMode('reply')} />
            Reply
          </label>
          <label className="radio">
            <input type="radio" name="composer-mode" checked={mode === 'note'} onChange={() => setMode('note')} />
            Internal note
          </label>
        </fieldset>
        {mode === 'reply' && !canReply ? (
          <p className="notice notice-warning" role="status">
            {closed
              ? 'This conversation is closed. Take it over to reply.'
              : 'The 24-hour window is closed: only a template message can be sent to this customer until they write again. Choose an approved one below.'}
          </p>
        ) : (
          <>
            <label>
              {label}
              <textarea
                ref={box}
                value={text}
                onChange={(e) => type(e.target.value)}
                rows={3}
                maxLength={4096}
                required
                aria-describedby={mode === 'reply' ? 'composer-canned-hint' : 'composer-mention-hint'}
                className={mode === 'note' ? 'note-input' : undefined}
              />
            </label>
            {mode === 'reply' ? (
              <p id="composer-canned-hint" className="small muted">
                Type / and a shortcut for a canned reply.
              </p>
            ) : (
              <p id="composer-mention-hint" className="small muted">
                Write @ and someone’s name to mention them: they find the conversation under “Mentioning me”.
              </p>
            )}
            {mode === 'reply' && picker !== 'closed' && (
              <CannedReplyPicker
                searchFirst={picker === 'button'}
                query={pickerQuery}
                onQuery={setPickerQuery}
                values={{ contactName: contactName(thread), agentName: me?.name ?? 'the team' }}
                onPick={insert}
                onClose={() => {
                  setPicker('closed');
                  box.current?.focus();
                }}
              />
            )}
            {mode === 'reply' && thread.state === 'active' && <p className="small muted">Replying takes the conversation over: the agent goes silent.</p>}
            <SendErrorNotice action={action} what="this reply" />
            <div className="row wrap">
              <button type="submit" disabled={action.pending || !text.trim()}>
                {mode === 'reply' ? (action.pending ? 'Sending…' : 'Send reply') : 'Add note'}
              </button>
              {mode === 'reply' && (
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={picker !== 'closed'}
                  onClick={() => {
                    setPickerQuery('');
                    setPicker(picker === 'closed' ? 'button' : 'closed');
                  }}
                >
                  Canned replies
                </button>
              )}
            </div>
          </>
        )}
      </form>
      {/* Its own form, after the composer's: forms do not nest. */}
      {mode === 'reply' && !canReply && !closed && <TemplateReply thread={thread} onSent={onSent} />}
    </>
  );
}
