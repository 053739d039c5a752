import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Channel } from '../api';
import { AnswerGrounding } from '../components/answer-grounding';
import { errorText } from '../components/problem-text';
import { useApi } from '../session/session';

/**
 * "Why this answer?" under an agent's reply in the Playground: the agent's confidence and the passages it would use
 * for the customer's message, each with its score (CONTRACT.md §20), from the agent's test route. Asked only when
 * opened (each question is a request), and said to be the message on its own: the live reply also knew the
 * conversation before it.
 */
export function WhyThisAnswer({ channel, question }: { channel: Channel; question: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Why this answer?</summary>
      {open && <Grounding channel={channel} question={question} />}
    </details>
  );
}

function Grounding({ channel, question }: { channel: Channel; question: string }) {
  const api = useApi();
  const answer = useQuery({
    queryKey: ['agent-test', channel.agent ?? null, question],
    queryFn: async () => api.testAgent(channel.agent ?? (await oldestAgent()), question),
    staleTime: 60_000,
  });
  // The agent that answers on a channel without one is the tenant's oldest (CONTRACT.md §6).
  async function oldestAgent(): Promise<string> {
    const agents = (await api.listAgents()).data;
    const oldest = [...agents].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
    if (!oldest) throw new Error('No agent answers on this number yet.');
    return oldest.name;
  }
  if (answer.isPending) return <p className="muted" role="status">Asking the agent…</p>;
  if (answer.isError) return <p className="error">{errorText(answer.error)}</p>;
  return (
    <div data-testid="playground-why">
      <AnswerGrounding result={answer.data} />
      <p className="muted small">For this message on its own; the reply above also knew the conversation before it.</p>
    </div>
  );
}
