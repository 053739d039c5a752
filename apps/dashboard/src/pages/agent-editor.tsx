import { useState, type FormEvent } from 'react';
import { SKILLS, TestsFailedError, type Agent, type AgentBody, type AgentTestCaseResult, type Booking, type Faq, type Skill } from '../api';
import { ErrorNotice } from '../components/feedback';
import { slugify } from '../components/slug';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { RequireTestsChoice, TestsRefusal } from './agent-tests';
import { OpeningHoursEditor, TimeZoneField } from './booking-hours';

const SKILL_LABELS: Record<Skill, string> = {
  faq_responder: 'Answer questions from your FAQs',
  lead_capture: 'Capture leads (name, email, phone, interest)',
  appointment_booking: 'Book appointments in your opening hours',
};

/** The browser's own time zone: where the business most likely is. */
const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const DEFAULT_BOOKING: Booking = {
  timezone: BROWSER_TIME_ZONE,
  slot_minutes: 30,
  opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
};

/**
 * Creates or replaces an AI agent (a PUT of the whole agent; a change makes a new version). A new one is named in plain
 * words ("Fjord Bikes assistant"); its API identifier is derived from the name and shown as it is typed. An agent with tests
 * can be saved only if they all pass (`?require_tests=pass`): a refusal lists the failing cases.
 */
export function AgentEditor({ agent, onSaved, onRefused }: { agent?: Agent; onSaved(agent: Agent): void; onRefused?(): void }) {
  const api = useApi();
  const [name, setName] = useState(agent?.name ?? '');
  const [instruction, setInstruction] = useState(agent?.instruction ?? '');
  const [greeting, setGreeting] = useState(agent?.greeting ?? '');
  const [skills, setSkills] = useState<Skill[]>(agent?.skills ?? ['faq_responder']);
  const [faqs, setFaqs] = useState<Faq[]>(agent?.faqs ?? []);
  const [booking, setBooking] = useState<Booking>(agent?.booking ?? DEFAULT_BOOKING);
  const [requireTests, setRequireTests] = useState(false);
  const [failing, setFailing] = useState<AgentTestCaseResult[]>();
  const action = useAction();

  const toggleSkill = (skill: Skill) => setSkills((s) => (s.includes(skill) ? s.filter((x) => x !== skill) : [...s, skill]));
  const setFaq = (i: number, patch: Partial<Faq>) => setFaqs((f) => f.map((faq, j) => (j === i ? { ...faq, ...patch } : faq)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: AgentBody = { name: agent ? agent.name : slugify(name), instruction, greeting, skills, faqs: faqs.filter((f) => f.question.trim() || f.answer.trim()) };
    if (skills.includes('appointment_booking')) body.booking = booking;
    setFailing(undefined);
    const result = await action.run(async () => {
      if (!agent || !requireTests) return api.putAgent(body);
      try {
        return await api.putAgentIfTestsPass(body);
      } catch (err) {
        // the failing cases say what is wrong, instead of an error notice
        if (!(err instanceof TestsFailedError) || err.failing.length === 0) throw err;
        setFailing(err.failing);
        onRefused?.();
        return undefined;
      }
    });
    if (result) onSaved(result);
  };

  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label={agent ? `Edit AI agent ${agent.name}` : 'New AI agent'}>
      <h2>{agent ? `Edit ${agent.name} (version ${agent.version})` : 'New AI agent'}</h2>
      {agent ? (
        <p className="muted small">
          API identifier: <code>{agent.name}</code>
        </p>
      ) : (
        <>
          <label>
            Name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={120}
              placeholder="e.g. Fjord Bikes assistant"
              {...action.bind('name')}
              aria-describedby={action.bind('name')['aria-describedby'] ?? 'agent-name-hint'}
            />
          </label>
          {action.fieldError('name')}
          <p id="agent-name-hint" className="muted small" aria-live="polite">
            {slugify(name) ? (
              <>
                API identifier: <code data-testid="agent-identifier">{slugify(name)}</code> (made from the name; programs use it)
              </>
            ) : (
              'Any name your team recognises; programs use an identifier made from it.'
            )}
          </p>
        </>
      )}
      <label>
        What it should do <span className="muted">(in plain words: your business, what to answer, what to leave to a person)</span>
        <textarea value={instruction} onChange={(e) => setInstruction(e.target.value)} required maxLength={8000} rows={4} {...action.bind('instruction')} />
      </label>
      {action.fieldError('instruction')}
      <label>
        Greeting <span className="muted">(starts the first reply of each conversation)</span>
        <input value={greeting} onChange={(e) => setGreeting(e.target.value)} maxLength={1000} {...action.bind('greeting')} />
      </label>
      {action.fieldError('greeting')}
      <fieldset className="choices">
        <legend>Skills</legend>
        {SKILLS.map((skill) => (
          <label key={skill} className="checkbox">
            <input type="checkbox" checked={skills.includes(skill)} onChange={() => toggleSkill(skill)} />
            {SKILL_LABELS[skill]}
          </label>
        ))}
      </fieldset>
      {skills.includes('faq_responder') && (
        <fieldset>
          <legend>FAQs</legend>
          {faqs.length === 0 && <p className="muted">No FAQs yet.</p>}
          {faqs.map((faq, i) => (
            <div key={i} className="faq">
              <label>
                Question {i + 1}
                <input value={faq.question} onChange={(e) => setFaq(i, { question: e.target.value })} {...action.bind(`faqs[${i}].question`)} />
              </label>
              {action.fieldError(`faqs[${i}].question`)}
              <label>
                Answer {i + 1}
                <textarea value={faq.answer} onChange={(e) => setFaq(i, { answer: e.target.value })} rows={2} {...action.bind(`faqs[${i}].answer`)} />
              </label>
              {action.fieldError(`faqs[${i}].answer`)}
              <button type="button" className="secondary button-small" onClick={() => setFaqs((f) => f.filter((_, j) => j !== i))}>
                Remove FAQ {i + 1}
              </button>
            </div>
          ))}
          <button type="button" className="secondary" onClick={() => setFaqs((f) => [...f, { question: '', answer: '' }])}>
            Add a FAQ
          </button>
        </fieldset>
      )}
      {skills.includes('appointment_booking') && (
        <fieldset>
          <legend>Booking hours</legend>
          <div className="row wrap">
            <TimeZoneField value={booking.timezone} onChange={(timezone) => setBooking({ ...booking, timezone })} field={action.bind('booking.timezone')} />
            <label>
              Slot (minutes)
              <input
                type="number"
                min={5}
                max={480}
                value={booking.slot_minutes}
                onChange={(e) => setBooking({ ...booking, slot_minutes: Number(e.target.value) })}
                {...action.bind('booking.slot_minutes')}
              />
            </label>
          </div>
          {action.fieldError('booking.timezone')}
          {action.fieldError('booking.slot_minutes')}
          <p className="muted small">Customers can book in these hours, in the agent’s time zone. A day without hours is closed.</p>
          <OpeningHoursEditor hours={booking.opening_hours} onChange={(opening_hours) => setBooking({ ...booking, opening_hours })} />
        </fieldset>
      )}
      {agent && <RequireTestsChoice agent={agent.name} checked={requireTests} onChange={setRequireTests} />}
      {agent && failing && <TestsRefusal agent={agent} failing={failing} />}
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Saving…' : agent ? 'Save changes' : 'Create AI agent'}
      </button>
    </form>
  );
}
