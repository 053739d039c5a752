import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { LABEL_PATTERN, MAX_LABELS, type ConversationChange, type InboxConversation, type InboxThread, type Team } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { formatSpan } from '../../components/format';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { teamName } from '../team/teams-data';
import { threadKey } from './inbox-live';

// A conversation's team, SLA due times and labels (CONTRACT.md §18), in the thread and, compactly, in the list.

/** The time now, again every `everyMs`: due times said "in 12 min" keep counting down. */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "due in 12 min", or "overdue by 5 min" once the time passed. */
function dueIn(iso: string, now: number): { text: string; overdue: boolean } {
  const ms = Date.parse(iso) - now;
  return ms > 0 ? { text: `due in ${formatSpan(ms)}`, overdue: false } : { text: `overdue by ${formatSpan(-ms)}`, overdue: true };
}

/**
 * Whether a person already answered since the conversation reached its team. The SLA says its due times, not whether
 * the first reply was made: a reply by the team since the handoff (the due time less the team's target) counts.
 */
function firstReplyMade(thread: InboxThread, team: Team | undefined): boolean {
  const due = thread.sla?.first_response_due_at;
  const target = team?.sla?.first_response_seconds;
  const since = due && target ? Date.parse(due) - target * 1000 : undefined;
  return thread.messages.some((m) => (m.author.type === 'member' || m.author.type === 'api') && (since === undefined || Date.parse(m.at) >= since));
}

/** The SLA of a conversation: red "SLA breached" once a target was missed, else the next target due. */
export function SlaStatus({ thread, team }: { thread: InboxThread; team: Team | undefined }) {
  const now = useNow();
  const sla = thread.sla;
  if (!sla) return null;
  if (sla.breached) {
    return (
      <span className="badge badge-error sla-breached" data-testid="sla-status" data-breached="true">
        SLA breached
      </span>
    );
  }
  if (thread.state === 'closed') return null;
  let due: { what: string; at: string } | undefined;
  if (sla.first_response_due_at && !firstReplyMade(thread, team)) due = { what: 'First reply', at: sla.first_response_due_at };
  else if (sla.resolution_due_at) due = { what: 'Resolution', at: sla.resolution_due_at };
  if (!due) return null;
  const { text, overdue } = dueIn(due.at, now);
  return (
    <span className={`badge sla-due${overdue ? ' badge-error' : ' badge-warning'}`} data-testid="sla-status" data-breached="false" title={new Date(due.at).toLocaleString()}>
      {due.what} {text}
    </span>
  );
}

/** A change of the conversation, shown at once in the open thread (the list reads it again). */
function useConversationChange(thread: InboxThread) {
  const api = useApi();
  const queries = useQueryClient();
  const action = useAction();
  const change = async (body: ConversationChange): Promise<boolean> => {
    const saved = await action.run(() => api.updateConversation(thread.id, body));
    if (!saved) return false;
    queries.setQueryData<InboxThread>(threadKey(thread.id), (old) => (old ? { ...old, ...saved } : old));
    void queries.invalidateQueries({ queryKey: ['inbox'] });
    return true;
  };
  return { action, change };
}

/** Which team handles the conversation, and moving it to another (its routing then hands it to one of its members). */
export function TeamChoice({ thread, teams }: { thread: InboxThread; teams: readonly Team[] | undefined }) {
  const { action, change } = useConversationChange(thread);
  const current = thread.team_id ?? '';
  const known = !thread.team_id || teams?.some((t) => t.id === thread.team_id);
  return (
    <>
      <label className="inline-label">
        Team
        <select value={current} disabled={action.pending || !teams} onChange={(e) => void change({ team_id: e.target.value || null })} data-testid="thread-team">
          <option value="">no team</option>
          {!known && <option value={current}>{teamName(thread.team_id, teams)}</option>}
          {teams?.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorNotice error={action.error} />
    </>
  );
}

/** What a person types made a label: "Refund Request " → "refund-request". */
const labelOf = (typed: string) => typed.trim().toLowerCase().replace(/\s+/g, '-');

/** The conversation's labels as chips: one removed with its ×, one added by typing it and Enter; saved as the whole list. */
export function ConversationLabels({ thread }: { thread: InboxThread }) {
  const { action, change } = useConversationChange(thread);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  const labels = thread.labels;

  const add = async () => {
    const label = labelOf(typed);
    if (!label || action.pending) return;
    if (labels.includes(label)) {
      setTyped('');
      return;
    }
    if (!LABEL_PATTERN.test(label)) return setProblem('A label is 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit.');
    if (labels.length >= MAX_LABELS) return setProblem(`A conversation has at most ${MAX_LABELS} labels: remove one first.`);
    if (await change({ labels: [...labels, label] })) setTyped('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void add();
  };
  const hint = `conversation-labels-hint-${thread.id}`;

  return (
    <div className="conversation-labels" data-testid="conversation-labels">
      {labels.length > 0 && (
        <ul className="label-chips" aria-label="Labels">
          {labels.map((label) => (
            <li key={label} className="label-chip">
              {label}
              <button
                type="button"
                className="label-remove"
                aria-label={`Remove label ${label}`}
                disabled={action.pending}
                onClick={() => void change({ labels: labels.filter((l) => l !== label) })}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="label-add">
        <span className="visually-hidden">Add a label</span>
        <input
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setProblem(undefined);
          }}
          onKeyDown={onKeyDown}
          placeholder={labels.length ? 'Add a label…' : 'Add a label, e.g. refund'}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? hint : undefined}
        />
      </label>
      {problem && (
        <span className="field-error" id={hint}>
          {problem}
        </span>
      )}
      <ErrorNotice error={action.error} />
    </div>
  );
}

/** The list's compact view of a conversation's labels: the first three, then "+2". */
export function LabelSummary({ labels }: { labels: InboxConversation['labels'] }) {
  if (labels.length === 0) return null;
  const shown = labels.slice(0, 3);
  return (
    <span className="label-summary" data-testid="inbox-labels">
      <span className="visually-hidden">Labels: </span>
      {shown.map((label) => (
        <span key={label} className="label-chip label-chip-small">
          {label}
        </span>
      ))}
      {labels.length > shown.length && <span className="muted small"> +{labels.length - shown.length}</span>}
    </span>
  );
}
