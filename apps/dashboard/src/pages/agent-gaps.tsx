import { useState, type FormEvent } from 'react';
import type { KnowledgeGap } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime } from '../components/format';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

/**
 * What the AI agent could not answer (CONTRACT.md §19): customers' questions it said it did not know, gave to a person,
 * or that someone marked wrong in the inbox, near-duplicates grouped. The owner answers a gap once; the answer becomes
 * FAQs of the agent (a new version), and every wording of the question is answered from then on.
 */
export function AgentGaps({ agent, onAnswered }: { agent: string; onAnswered(): void }) {
  const api = useApi();
  // a question the agent could not answer arrives with its message.received
  const gaps = useLiveQuery(['agents', agent, 'gaps'], () => api.listGaps(agent), { events: ['message.received'], delaysMs: [1500] });
  const [note, setNote] = useState<string>();
  const settled = (text: string) => {
    setNote(text);
    gaps.reload();
  };

  return (
    <section className="card" aria-labelledby="gaps-title">
      <h2 id="gaps-title">Questions it could not answer</h2>
      <p className="muted">
        What customers asked that {agent} did not know, handed to a person, or answered wrongly (marked in the inbox), similar questions grouped.
        Answer one once: {agent} answers it, however it is asked, from then on.
      </p>
      {note && (
        <p className="notice notice-success" role="status">
          {note}
        </p>
      )}
      <AsyncView state={gaps} what="questions" isEmpty={(p) => p.data.length === 0} empty="Nothing yet: questions your AI agent cannot answer will appear here.">
        {(page) => (
          <ul className="list" aria-label="Unanswered questions">
            {page.data.map((gap) => (
              <GapRow
                key={gap.id}
                agent={agent}
                gap={gap}
                onAnswered={() => {
                  settled(`Answered “${gap.question}”: ${agent} now answers it${gap.examples.length > 1 ? ` and ${gap.examples.length - 1} other wording${gap.examples.length > 2 ? 's' : ''}` : ''}.`);
                  onAnswered();
                }}
                onDismissed={() => settled(`Dismissed “${gap.question}”.`)}
              />
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

function GapRow({ agent, gap, onAnswered, onDismissed }: { agent: string; gap: KnowledgeGap; onAnswered(): void; onDismissed(): void }) {
  const api = useApi();
  const action = useAction();
  const [answer, setAnswer] = useState('');
  const inputId = `gap-answer-${gap.id}`;
  const others = gap.examples.filter((e) => e !== gap.question);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => api.answerGap(agent, gap.id, answer.trim()))) onAnswered();
  };
  const dismiss = async () => {
    if (await action.run(() => api.dismissGap(agent, gap.id))) onDismissed();
  };

  return (
    <li className="faq">
      <p>
        <strong>{gap.question}</strong>{' '}
        <span className="muted">
          asked {gap.count === 1 ? 'once' : `${gap.count} times`} · last {formatTime(gap.last_seen_at)}
        </span>
      </p>
      {others.length > 0 && (
        <p className="muted">
          Also asked as: {others.map((e, i) => (
            <span key={e}>
              {i > 0 && ', '}“{e}”
            </span>
          ))}
        </p>
      )}
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label htmlFor={inputId}>Answer</label>
        <textarea id={inputId} rows={2} value={answer} onChange={(e) => setAnswer(e.target.value)} required maxLength={4000} {...action.bind('answer')} />
        {action.fieldError('answer')}
        <ErrorNotice error={action.error} />
        <div className="actions">
          <button type="submit" disabled={action.pending || answer.trim() === ''}>
            Save answer
          </button>
          <button type="button" className="secondary" disabled={action.pending} onClick={() => void dismiss()}>
            Dismiss
          </button>
        </div>
      </form>
    </li>
  );
}
