import type { AgentTestResult } from '../api';

const SOURCE_KINDS: Record<AgentTestResult['sources'][number]['type'], string> = { faq: 'FAQ', document: 'Document', instruction: 'Instruction' };

/** A 0–1 score as the owner reads it: a whole percentage. */
export const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * How sure the agent was of an answer and which knowledge it used, each passage with its score (CONTRACT.md §20).
 * No confidence means the reply used no knowledge: small talk, a booking step, a handoff or "I don't know".
 */
export function AnswerGrounding({ result }: { result: Pick<AgentTestResult, 'confidence' | 'sources'> }) {
  return (
    <>
      <p className="muted" data-testid="answer-confidence">
        {result.confidence === null ? 'Answered without your knowledge' : `Confidence ${percent(result.confidence)}`}
      </p>
      {result.sources.length > 0 && (
        <ul className="muted" aria-label="Sources" data-testid="answer-sources">
          {result.sources.map((source) => (
            <li key={`${source.type}:${source.id}`}>
              {SOURCE_KINDS[source.type]} <q>{source.title}</q> ({percent(source.score)}): {source.excerpt}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
