import { useState, type FormEvent } from 'react';
import type { AgentTestResult } from '../api';
import { AnswerGrounding } from '../components/answer-grounding';
import { ErrorNotice } from '../components/feedback';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

/**
 * What the agent would answer to one message, the language it answered in, how sure it was and the knowledge it used
 * (each passage with its score): nothing is sent or stored.
 */
export function AgentTester({ agent }: { agent: string }) {
  const api = useApi();
  const [message, setMessage] = useState('');
  const [result, setResult] = useState<AgentTestResult>();
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(() => api.testAgent(agent, message));
    if (answer) setResult(answer);
  };
  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label="Test an answer">
      <h2>Test an answer</h2>
      <label>
        A customer writes
        <input value={message} onChange={(e) => setMessage(e.target.value)} required maxLength={4096} />
      </label>
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        Ask {agent}
      </button>
      {result && (
        <div className="bubble bubble-agent" role="status" data-testid="agent-test-reply">
          <p>{result.reply}</p>
          <p className="muted">
            Skill: {result.skill ?? 'none'} · Language: <span data-testid="agent-test-language">{result.language}</span>
            {result.handoff && ' · hands the conversation to a person'}
          </p>
          <AnswerGrounding result={result} />
        </div>
      )}
    </form>
  );
}
