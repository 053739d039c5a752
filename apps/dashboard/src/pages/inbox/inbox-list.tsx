import { useEffect, useState } from 'react';
import type { InboxFilter, InboxState, Member } from '../../api';
import { AsyncView } from '../../components/feedback';
import { CHANNEL_KINDS, ChannelBadge, channelLabel, type ChannelKind } from '../../components/channel';
import { formatTime } from '../../components/format';
import { LiveIndicator } from '../../components/live-indicator';
import { useAsync } from '../../components/use-async';
import { Link } from '../../router';
import { useApi, useMember } from '../../session/session';
import { INBOX_LIVE } from './inbox-live';
import { STATE_LABELS, contactName, memberName } from './people';

type AssigneeChoice = 'anyone' | 'me' | 'unassigned';
const SEARCH_DELAY_MS = 300;

/** The conversations, filtered by state, assignee and channel and searched by name, number or text; live. */
export function InboxList({ openId, members }: { openId: string | undefined; members: readonly Member[] }) {
  const api = useApi();
  const me = useMember();
  const [state, setState] = useState<InboxState | ''>('');
  const [assignee, setAssignee] = useState<AssigneeChoice>('anyone');
  const [channel, setChannel] = useState<ChannelKind | ''>('');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);

  const filter: InboxFilter = {
    ...(state ? { state } : {}),
    ...(assignee === 'me' ? { assignee: 'me' } : assignee === 'unassigned' ? { assignee: 'none' } : {}),
    ...(channel ? { channel } : {}),
    ...(q ? { q } : {}),
  };
  const conversations = useAsync(() => api.inbox(filter), JSON.stringify(filter), INBOX_LIVE);

  return (
    <div className="inbox-list">
      <form className="inbox-filters" role="search" aria-label="Filter conversations" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="Name, number or words" />
        </label>
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
      </form>
      <LiveIndicator />
      <AsyncView state={conversations} what="conversations" isEmpty={(p) => p.data.length === 0} empty="No conversation matches.">
        {(page) => (
          <ul className="inbox-items" aria-label="Conversations">
            {page.data.map((c) => {
              const name = contactName(c);
              const assigned = memberName(c.assignee, members, me);
              return (
                <li key={c.id} data-testid="inbox-item" data-state={c.state} data-channel={c.channel} data-unread={c.unread}>
                  <Link to={`/inbox/${encodeURIComponent(c.id)}`} className="inbox-item" current={openId === c.id}>
                    <span className="inbox-item-top">
                      <strong className={c.unread > 0 ? 'unread' : undefined}>{name}</strong>
                      {c.unread > 0 && (
                        <span className="badge badge-unread" aria-label={`${c.unread} unread`}>
                          {c.unread}
                        </span>
                      )}
                    </span>
                    {name !== c.customer && <span className="muted small block">{c.customer}</span>}
                    {c.last_message && <span className="inbox-preview">{c.last_message.text}</span>}
                    <span className="muted small block">
                      <ChannelBadge channel={c.channel} />
                      <span className={`badge state-${c.state}`}>{STATE_LABELS[c.state]}</span>
                      {assigned ? ` · ${assigned}` : ''} · {formatTime(c.last_message?.at ?? c.last_message_at)}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </AsyncView>
    </div>
  );
}
