import { useEffect, useState } from 'react';
import { LABEL_PATTERN, type InboxConversation, type InboxFilter, type InboxState, type Member, type Team } from '../../api';
import { AsyncView } from '../../components/feedback';
import { CHANNEL_KINDS, ChannelBadge, channelLabel, type ChannelKind } from '../../components/channel';
import { formatTime } from '../../components/format';
import { LiveIndicator } from '../../components/live-indicator';
import { useLiveInvalidation, useLiveQuery } from '../../components/live-query';
import { Link } from '../../router';
import { useApi, useMember } from '../../session/session';
import { teamName, useTeams } from '../team/teams-data';
import { LabelSummary } from './conversation-meta';
import { CONTACT_NAME_LIVE, INBOX_LIVE, inboxKey } from './inbox-live';
import { STATE_LABELS, contactName, memberName } from './people';

type AssigneeChoice = 'anyone' | 'me' | 'unassigned';
type SourceChoice = 'customer' | 'playground' | 'all';
const SEARCH_DELAY_MS = 300;

/** A label typed in the filter as the API spells labels ("Refund Request" → "refund-request"). */
const labelFilterOf = (typed: string) => typed.trim().toLowerCase().replace(/\s+/g, '-');

/**
 * The conversations, filtered by state, assignee, channel, team, label and who wrote (real customers or the
 * playground), and searched in what people wrote as well as names and numbers; live.
 */
export function InboxList({ openId, members }: { openId: string | undefined; members: readonly Member[] }) {
  const api = useApi();
  const me = useMember();
  const [state, setState] = useState<InboxState | ''>('');
  const [assignee, setAssignee] = useState<AssigneeChoice>('anyone');
  const [mentioningMe, setMentioningMe] = useState(false);
  const [channel, setChannel] = useState<ChannelKind | ''>('');
  // Playground chats are the team trying the agent, not customers: apart unless asked for.
  const [source, setSource] = useState<SourceChoice>('customer');
  const [teamId, setTeamId] = useState('');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const [typedLabel, setTypedLabel] = useState('');
  const [label, setLabel] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setLabel(labelFilterOf(typedLabel)), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typedLabel]);
  const labelValid = label === '' || LABEL_PATTERN.test(label);
  const teams = useTeams().data?.data;
  // the labels seen so far, offered as the label filter's suggestions (no route lists the labels in use)
  const [seenLabels, setSeenLabels] = useState<readonly string[]>([]);

  const filter: InboxFilter = {
    ...(state ? { state } : {}),
    ...(assignee === 'me' ? { assignee: 'me' } : assignee === 'unassigned' ? { assignee: 'none' } : {}),
    ...(channel ? { channel } : {}),
    ...(source !== 'all' ? { source } : {}),
    ...(teamId ? { team_id: teamId } : {}),
    ...(label && labelValid ? { label } : {}),
    ...(mentioningMe ? { mentioned: 'me' } : {}),
    ...(q ? { q } : {}),
  };
  const conversations = useLiveQuery(inboxKey(filter), () => api.inbox(filter), INBOX_LIVE, { keepPrevious: true });
  useLiveInvalidation(inboxKey(filter), CONTACT_NAME_LIVE);
  const listed = conversations.data?.data;
  useEffect(() => {
    const found = new Set(listed?.flatMap((c) => c.labels) ?? []);
    setSeenLabels((seen) => (Array.from(found).every((l) => seen.includes(l)) ? seen : Array.from(new Set([...seen, ...found])).sort()));
  }, [listed]);

  return (
    <div className="inbox-list">
      <form className="inbox-filters" role="search" aria-label="Filter conversations" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search messages
          <input
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Words a customer or your team wrote, a name or a number"
            aria-describedby="inbox-search-hint"
          />
        </label>
        <p id="inbox-search-hint" className="small muted inbox-search-hint">
          Finds words in the messages (“battery” finds “batteries”), the contact’s name and number.
        </p>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.target.value as InboxState | '')}>
            <option value="">any</option>
            <option value="handed_off">{STATE_LABELS.handed_off}</option>
            <option value="active">{STATE_LABELS.active}</option>
            <option value="closed">{STATE_LABELS.closed}</option>
          </select>
        </label>
        <label>
          Assigned to
          <select value={assignee} onChange={(e) => setAssignee(e.target.value as AssigneeChoice)}>
            <option value="anyone">anyone</option>
            {me && <option value="me">me</option>}
            <option value="unassigned">nobody</option>
          </select>
        </label>
        {me && (
          <label className="checkbox">
            <input type="checkbox" checked={mentioningMe} onChange={(e) => setMentioningMe(e.target.checked)} />
            Mentioning me
          </label>
        )}
        <label>
          Channel
          <select value={channel} onChange={(e) => setChannel(e.target.value as ChannelKind | '')}>
            <option value="">any</option>
            {CHANNEL_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {channelLabel(kind)}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <select value={source} onChange={(e) => setSource(e.target.value as SourceChoice)}>
            <option value="customer">customers</option>
            <option value="playground">the Playground</option>
            <option value="all">customers and the Playground</option>
          </select>
        </label>
        <label>
          Team
          <select value={teamId} onChange={(e) => setTeamId(e.target.value)}>
            <option value="">any</option>
            {teams?.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Label
          <input
            type="search"
            list="inbox-label-suggestions"
            value={typedLabel}
            onChange={(e) => setTypedLabel(e.target.value)}
            placeholder="any"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={labelValid ? undefined : true}
            aria-describedby={labelValid ? undefined : 'inbox-label-problem'}
          />
          <datalist id="inbox-label-suggestions">
            {seenLabels.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </label>
        {!labelValid && (
          <p id="inbox-label-problem" className="field-error inbox-search-hint">
            A label is lower-case letters, digits, - or _, starting with a letter or digit.
          </p>
        )}
      </form>
      <LiveIndicator />
      <AsyncView
        state={conversations}
        what="conversations"
        isEmpty={(p) => p.data.length === 0}
        empty={q ? `No conversation has “${q}” in its messages, name or number.` : label && labelValid ? `No conversation matches, with the label “${label}”.` : 'No conversation matches.'}
      >
        {(page) => (
          <>
            {q && (
              <p className="small" role="status" data-testid="search-summary">
                {page.data.length === 1 ? '1 conversation' : `${page.data.length} conversations`} with “{q}”
              </p>
            )}
            <ul className="inbox-items" aria-label="Conversations">
              {page.data.map((c) => (
                <InboxItem key={c.id} conversation={c} open={openId === c.id} members={members} teams={teams} />
              ))}
            </ul>
          </>
        )}
      </AsyncView>
    </div>
  );
}

function InboxItem({ conversation: c, open, members, teams }: { conversation: InboxConversation; open: boolean; members: readonly Member[]; teams: readonly Team[] | undefined }) {
  const me = useMember();
  const name = contactName(c);
  const assigned = memberName(c.assignee, members, me);
  const team = teamName(c.team_id, teams);
  // The preview is what the customer last asked, not our answer to it.
  const preview = c.last_customer_message ?? c.last_message;
  return (
    <li data-testid="inbox-item" data-state={c.state} data-channel={c.channel} data-source={c.source ?? 'customer'} data-unread={c.unread}>
      <Link to={`/inbox/${encodeURIComponent(c.id)}`} className="inbox-item" current={open}>
        <span className="inbox-item-top">
          <strong className={c.unread > 0 ? 'unread' : undefined}>{name}</strong>
          {c.unread > 0 && (
            <span className="badge badge-unread">
              {c.unread}
              <span className="visually-hidden"> unread</span>
            </span>
          )}
        </span>
        {name !== c.customer && <span className="muted small block">{c.customer}</span>}
        {preview && (
          <span className="inbox-preview" data-testid="inbox-preview">
            {preview === c.last_message && preview.author.type !== 'customer' && <span className="muted">You: </span>}
            {preview.text}
          </span>
        )}
        <span className="muted small block">
          <ChannelBadge channel={c.channel} />
          {c.source === 'playground' && <span className="badge badge-playground">Playground</span>}
          <span className={`badge state-${c.state}`}>{STATE_LABELS[c.state]}</span>
          {c.sla?.breached && <span className="badge badge-error">SLA breached</span>}
          {team ? ` · ${team}` : ''}
          {assigned ? ` · ${assigned}` : ''} · {formatTime(preview?.at ?? c.last_message_at)}
        </span>
        <LabelSummary labels={c.labels} />
      </Link>
    </li>
  );
}
