import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { CannedReply } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { fillCannedReply, type CannedReplyValues } from './canned-reply-text';

const CANNED_KEY = ['canned-replies'] as const;

/**
 * The team's canned replies to pick from (typing "/" in the reply box, or the "Canned replies" button), searched by
 * shortcut and words; choosing one hands its text back with its variables filled in. New ones are added here too.
 */
export function CannedReplyPicker({
  query,
  onQuery,
  values,
  onPick,
  onClose,
  searchFirst,
}: {
  /** Opened by the button: the search box takes the focus (typing "/" in the reply box keeps it there). */
  searchFirst: boolean;
  query: string;
  onQuery(query: string): void;
  values: CannedReplyValues;
  onPick(text: string): void;
  onClose(): void;
}) {
  const api = useApi();
  const replies = useLiveQuery([...CANNED_KEY, query], () => api.listCannedReplies(query || undefined), undefined, { keepPrevious: true });
  const list = replies.data?.data ?? [];
  const [active, setActive] = useState(0);
  const pick = (reply: CannedReply) => onPick(fillCannedReply(reply.text, values));
  // The search box's keys: arrows choose, Enter inserts the chosen one (never submits the reply), Escape closes.
  const onSearchKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onClose();
    if (event.key === 'ArrowDown') setActive((i) => Math.min(i + 1, list.length - 1));
    if (event.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
    if (event.key === 'Enter') {
      event.preventDefault();
      if (list[active]) pick(list[active]);
    }
  };
  return (
    <div className="canned-picker card" role="group" aria-label="Canned replies">
      <label>
        Find a canned reply
        <input type="search" value={query} onChange={(e) => onQuery(e.target.value)} onKeyDown={onSearchKey} placeholder="Shortcut or words" autoFocus={searchFirst} />
      </label>
      {replies.error && <ErrorNotice error={replies.error} />}
      {list.length === 0 && !replies.loading ? (
        <p className="small muted">{query ? `No canned reply matches “${query}”.` : 'No canned reply yet: add the first below.'}</p>
      ) : (
        <ul className="canned-list" aria-label="Matching canned replies">
          {list.map((reply, index) => (
            <li key={reply.id}>
              <button type="button" className={`canned-choice${index === active ? ' active' : ''}`} onClick={() => pick(reply)} data-testid="canned-reply">
                <strong>/{reply.shortcut}</strong> <span className="canned-text">{fillCannedReply(reply.text, values)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <NewCannedReply />
      <button type="button" className="secondary" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/** A new canned reply for the whole team. */
function NewCannedReply() {
  const api = useApi();
  const queries = useQueryClient();
  const action = useAction();
  const [shortcut, setShortcut] = useState('');
  const [text, setText] = useState('');
  const textBinding = action.bind('text');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!(await action.run(() => api.createCannedReply({ shortcut: shortcut.trim(), text })))) return;
    setShortcut('');
    setText('');
    void queries.invalidateQueries({ queryKey: CANNED_KEY });
  };
  return (
    <details className="canned-new">
      <summary>Add a canned reply</summary>
      {/* Not a nested form (the reply box is one): the button submits this part alone. */}
      <div className="form" role="group" aria-label="New canned reply">
        <label>
          Shortcut
          <input
            value={shortcut}
            onChange={(e) => setShortcut(e.target.value)}
            // Enter here must not send the reply this part sits in.
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            placeholder="opening-hours"
            maxLength={32}
            {...action.bind('shortcut')}
          />
        </label>
        {action.fieldError('shortcut')}
        <label>
          Text
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={4096}
            {...textBinding}
            aria-describedby={['canned-variables', textBinding['aria-describedby']].filter(Boolean).join(' ')}
          />
        </label>
        <span id="canned-variables" className="small muted">
          {'{{contact.name}}'} becomes the customer’s name, {'{{agent.name}}'} yours.
        </span>
        {action.fieldError('text')}
        <ErrorNotice error={action.error} />
        <button type="button" onClick={(e) => void submit(e)} disabled={action.pending || !shortcut.trim() || !text.trim()}>
          Save canned reply
        </button>
      </div>
    </details>
  );
}
