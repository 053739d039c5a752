import { useState, type FormEvent } from 'react';
import type { Agent, AgentTestCase, AgentTestCaseResult, AgentTestExpectation, AgentTestRun, Skill } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { countOf } from '../components/format';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

/** The agent's test cases in the query cache (under the agent's key, so a save of the agent reads them again). */
export const agentTestsKey = (agent: string) => ['agents', agent, 'tests'] as const;

/** How often a run still queued or running is read again. */
const RUN_POLL_MS = 1000;

const SKILL_WORDS: Record<Skill, string> = {
  faq_responder: 'your FAQs',
  lead_capture: 'lead capture',
  appointment_booking: 'booking',
};

/** What a case expects of the reply, in words: "answer contains “$15”", "says it doesn't know", "hands off to a person". */
export function expectationInWords(expect: AgentTestExpectation): string {
  const parts: string[] = [];
  if (expect.contains !== undefined) parts.push(`answer contains “${expect.contains}”`);
  if (expect.no_answer !== undefined) parts.push(expect.no_answer ? 'says it doesn’t know' : 'answers (does not say it doesn’t know)');
  if (expect.handoff !== undefined) parts.push(expect.handoff ? 'hands off to a person' : 'does not hand off to a person');
  if (expect.skill !== undefined) parts.push(`answered by ${SKILL_WORDS[expect.skill]}`);
  return parts.join(', and ');
}

/** The same words, looked up by whatever skill id a server's sentence names. */
const SKILL_WORDS_BY_ID: Record<string, string> = SKILL_WORDS;

/** The server's account of what did not hold ("answered by faq_responder (expected: appointment_booking)"), skills in words. */
function failureInWords(failure: string): string {
  return failure.replace(/\b[a-z]+_[a-z_]+\b/g, (id) => SKILL_WORDS_BY_ID[id] ?? id);
}

/** The agent's test cases, read through the query cache; every view of them (the section, the editor's choice) shares it. */
export function useAgentTests(agent: string) {
  const api = useApi();
  return useLiveQuery(agentTestsKey(agent), () => api.listAgentTests(agent));
}

/**
 * The agent's tests (CONTRACT.md §19): customers' messages and what the reply must be. Every change to the agent (a new
 * version) runs them in the background; the run of the current version is shown, followed until it completes.
 */
export function AgentTests({ agent }: { agent: Agent }) {
  const api = useApi();
  const tests = useAgentTests(agent.name);
  const [note, setNote] = useState<string>();
  const changed = (text: string) => {
    setNote(text);
    tests.reload();
  };
  const removal = useAction();
  const remove = async (test: AgentTestCase) => {
    const removed = await removal.run(async () => {
      await api.deleteAgentTest(agent.name, test.id);
      return true;
    });
    if (removed) changed(`Deleted the test “${test.message}”.`);
  };

  return (
    <section className="card agent-tests" aria-labelledby="tests-title">
      <h2 id="tests-title">Tests</h2>
      <p className="muted">Questions your customers ask and what the answer must be. Every change to the agent runs them.</p>
      <TestRunView agent={agent} hasTests={(tests.data?.length ?? 0) > 0} />
      <h3>Test cases</h3>
      {note && (
        <p className="notice notice-success" role="status">
          {note}
        </p>
      )}
      <ErrorNotice error={removal.error} />
      <AsyncView state={tests} what="tests" isEmpty={(cases) => cases.length === 0} empty="No tests yet: add the first below, e.g. a question customers often ask and a word its answer must contain.">
        {(cases) => (
          <ul className="list" aria-label="Test cases">
            {cases.map((test) => (
              <li key={test.id} className="row test-case">
                <span>
                  “{test.message}” <span className="muted">→ {expectationInWords(test.expect)}</span>
                </span>
                <button type="button" className="secondary button-small" disabled={removal.pending} onClick={() => void remove(test)} aria-label={`Delete test “${test.message}”`}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
      <AddTestForm agent={agent.name} onAdded={(test) => changed(`Added the test “${test.message}”. It runs the next time you save ${agent.name}.`)} />
    </section>
  );
}

/**
 * The run of the agent's current version: running, its result compared with the previous version, or none. An agent
 * without tests has no run to ask for (and no 404 in the browser's console for it).
 */
function TestRunView({ agent, hasTests }: { agent: Agent; hasTests: boolean }) {
  return (
    <div aria-labelledby="test-run-title" role="group">
      <h3 id="test-run-title">Latest run (version {agent.version})</h3>
      {hasTests ? <LatestRun agent={agent} /> : <p className="muted">No tests yet: a run starts with the next change once there are some.</p>}
    </div>
  );
}

function LatestRun({ agent }: { agent: Agent }) {
  const api = useApi();
  const run = useLiveQuery(['agents', agent.name, 'test-run', agent.version], () => api.agentTestRun(agent.name, agent.version), undefined, {
    pollWhile: (r) => (r && r.status !== 'completed' ? RUN_POLL_MS : false),
  });
  return (
    <AsyncView state={run} what="the test results">
      {(r) =>
        r === null ? (
          <p className="muted">Saved before this agent had tests: no run for this version.</p>
        ) : r.status !== 'completed' ? (
          <p role="status" aria-live="polite">
            Running your tests…
          </p>
        ) : (
          <CompletedRun run={r} />
        )
      }
    </AsyncView>
  );
}

function CompletedRun({ run }: { run: AgentTestRun }) {
  const failing = run.cases.filter((c) => !c.ok);
  return (
    <>
      <p role="status" data-testid="test-run-summary">
        <strong>{run.failed === 0 ? `All ${run.passed} passed.` : `${run.passed} passed, ${run.failed} failed.`}</strong>
        {run.previous_version !== null && (
          <>
            {' '}
            {run.trigger === 'documents' ? 'The change to its documents' : 'This change'} fixed {run.fixed.length} and broke {run.broken.length}{' '}
            <span className="muted">({run.trigger === 'documents' ? 'compared with the run before' : `compared with version ${run.previous_version}`})</span>.
          </>
        )}
      </p>
      {failing.length > 0 && <FailingCases cases={failing} broken={run.broken} label="Failing tests" />}
    </>
  );
}

/** Cases that fail: the customer's message, the reply the agent gave, and what of the expectation did not hold. */
export function FailingCases({ cases, broken = [], label }: { cases: AgentTestCaseResult[]; broken?: string[]; label: string }) {
  return (
    <ul className="list" aria-label={label}>
      {cases.map((c) => (
        <li key={c.test_id} className="faq test-case">
          <p>
            <strong>“{c.message}”</strong>
            {broken.includes(c.test_id) && <span className="badge badge-error">broken by this change</span>}
          </p>
          <p className="message-text">
            <span className="muted">It answered:</span> {c.reply || '(nothing)'}
          </p>
          <p className="error-text">Did not hold: {c.failures.map(failureInWords).join('; ')}</p>
        </li>
      ))}
    </ul>
  );
}

/** What the form offers a reply must do, in the order of its choices. */
const EXPECTATIONS = ['contains', 'no_answer', 'handoff'] as const;
type Expectation = (typeof EXPECTATIONS)[number];

function AddTestForm({ agent, onAdded }: { agent: string; onAdded(test: AgentTestCase): void }) {
  const api = useApi();
  const action = useAction();
  const [message, setMessage] = useState('');
  const [kind, setKind] = useState<Expectation>('contains');
  const [contains, setContains] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const expect: AgentTestExpectation = kind === 'contains' ? { contains: contains.trim() } : kind === 'no_answer' ? { no_answer: true } : { handoff: true };
    const test = await action.run(() => api.addAgentTest(agent, message.trim(), expect));
    if (!test) return;
    setMessage('');
    setContains('');
    onAdded(test);
  };

  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-labelledby="add-test-title">
      <h3 id="add-test-title">Add a test</h3>
      <label>
        The customer’s message
        <input value={message} onChange={(e) => setMessage(e.target.value)} required maxLength={4096} placeholder="e.g. How much is a haircut?" {...action.bind('message')} />
      </label>
      {action.fieldError('message')}
      <label>
        What the answer must do
        <select value={kind} onChange={(e) => setKind(EXPECTATIONS.find((k) => k === e.target.value) ?? 'contains')} {...action.bind('expect')}>
          <option value="contains">The answer contains…</option>
          <option value="no_answer">It says it doesn’t know</option>
          <option value="handoff">It hands off to a person</option>
        </select>
      </label>
      {action.fieldError('expect')}
      {kind === 'contains' && (
        <>
          <label>
            Text the answer contains <span className="muted">(capitals and accents aside)</span>
            <input value={contains} onChange={(e) => setContains(e.target.value)} required maxLength={500} placeholder="e.g. $15" {...action.bind('expect.contains')} />
          </label>
          {action.fieldError('expect.contains')}
        </>
      )}
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Adding…' : 'Add test'}
      </button>
    </form>
  );
}

/** The editor's choice to save only if every test passes; shown only when the agent has tests. */
export function RequireTestsChoice({ agent, checked, onChange }: { agent: string; checked: boolean; onChange(checked: boolean): void }) {
  const tests = useAgentTests(agent);
  const count = tests.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        Only save if all tests pass <span className="muted">({countOf(count, 'test')} run first; a failing one keeps the current version)</span>
      </span>
    </label>
  );
}

/** A save the tests refused (`?require_tests=pass`, 409): which cases fail with the change, instead of a bare error. */
export function TestsRefusal({ agent, failing }: { agent: Agent; failing: AgentTestCaseResult[] }) {
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>Not saved: {failing.length === 1 ? '1 test fails' : `${failing.length} tests fail`} with this change.</strong> {agent.name} stays at version {agent.version}.
        Change it until they pass, or untick “Only save if all tests pass”.
      </p>
      <FailingCases cases={failing} label="Tests that fail with this change" />
    </div>
  );
}
