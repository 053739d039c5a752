import { useEffect, useRef, useState, type FormEvent } from 'react';
import { TEAM_ROUTINGS, type BusinessHours, type Member, type NewTeam, type Team, type TeamChange, type TeamRouting } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useAction } from '../../components/use-action';
import { useApi, useMember } from '../../session/session';
import { OpeningHoursEditor, TimeZoneField } from '../booking-hours';
import { BROWSER_TIME_ZONE, ROUTING_WORDS } from './teams-data';

type Unit = 'minutes' | 'hours';
const UNIT_SECONDS: Record<Unit, number> = { minutes: 60, hours: 3600 };

/** A target as the form holds it: an amount typed and its unit; empty: none. */
interface Target {
  amount: string;
  unit: Unit;
}

interface Draft {
  name: string;
  members: string[];
  routing: TeamRouting;
  capacity: string;
  reassignMinutes: string;
  timezone: string;
  hours: BusinessHours;
  holidays: string[];
  closedMessage: string;
  firstResponse: Target;
  resolution: Target;
}

const WEEKDAY_HOURS: BusinessHours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]]));

/** Seconds as the form shows them: whole hours in hours, the rest in minutes. */
function targetOf(seconds: number | undefined, fallback: Unit): Target {
  if (seconds === undefined) return { amount: '', unit: fallback };
  return seconds % 3600 === 0 ? { amount: String(seconds / 3600), unit: 'hours' } : { amount: String(Math.round(seconds / 60)), unit: 'minutes' };
}

function draftOf(team: Team | undefined): Draft {
  if (!team) {
    return {
      name: '',
      members: [],
      routing: 'round_robin',
      capacity: '',
      reassignMinutes: '',
      timezone: BROWSER_TIME_ZONE,
      hours: WEEKDAY_HOURS,
      holidays: [],
      closedMessage: '',
      firstResponse: { amount: '', unit: 'minutes' },
      resolution: { amount: '', unit: 'hours' },
    };
  }
  return {
    name: team.name,
    members: team.members,
    routing: team.routing,
    capacity: team.capacity_per_member === null ? '' : String(team.capacity_per_member),
    reassignMinutes: team.reassign_after_seconds === null ? '' : String(Math.max(1, Math.round(team.reassign_after_seconds / 60))),
    timezone: team.timezone,
    hours: team.business_hours,
    holidays: team.holidays,
    closedMessage: team.closed_message ?? '',
    firstResponse: targetOf(team.sla?.first_response_seconds, 'minutes'),
    resolution: targetOf(team.sla?.resolution_seconds, 'hours'),
  };
}

/** A typed number, or undefined when left empty (a number field holds "" for anything it cannot read). */
function numberOf(typed: string): number | undefined {
  const text = typed.trim();
  return text === '' ? undefined : Number(text);
}

const secondsOf = (target: Target) => {
  const amount = numberOf(target.amount);
  return amount === undefined ? undefined : Math.round(amount * UNIT_SECONDS[target.unit]);
};

/** The body of a create: settings left empty are left out (the team has none). */
function newTeamOf(draft: Draft): NewTeam {
  const change = changeOf(draft);
  const body: NewTeam = { name: draft.name.trim(), members: draft.members, routing: draft.routing, timezone: draft.timezone.trim(), business_hours: draft.hours, holidays: change.holidays };
  if (change.capacity_per_member != null) body.capacity_per_member = change.capacity_per_member;
  if (change.reassign_after_seconds != null) body.reassign_after_seconds = change.reassign_after_seconds;
  if (change.closed_message != null) body.closed_message = change.closed_message;
  if (change.sla != null) body.sla = change.sla;
  return body;
}

/** The body of a change: the whole form, settings left empty cleared (null). */
function changeOf(draft: Draft): TeamChange & Required<Pick<TeamChange, 'holidays'>> {
  const first = secondsOf(draft.firstResponse);
  const resolution = secondsOf(draft.resolution);
  const reassign = numberOf(draft.reassignMinutes);
  return {
    name: draft.name.trim(),
    members: draft.members,
    routing: draft.routing,
    capacity_per_member: numberOf(draft.capacity) ?? null,
    reassign_after_seconds: reassign === undefined ? null : Math.round(reassign * 60),
    timezone: draft.timezone.trim(),
    business_hours: draft.hours,
    holidays: [...draft.holidays].sort(),
    closed_message: draft.closedMessage.trim() || null,
    sla: first === undefined && resolution === undefined ? null : { ...(first !== undefined ? { first_response_seconds: first } : {}), ...(resolution !== undefined ? { resolution_seconds: resolution } : {}) },
  };
}

/** "2026-12-25" → "Fri, Dec 25, 2026" (a calendar date: no time zone moves it). */
function dateInWords(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString(undefined, { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * Creates or changes a team: its name and people, how it shares conversations, its hours (time zone, periods per
 * weekday, holidays) and what a customer outside them is told, and its response targets. The API's refusals are
 * shown beside the field they name.
 */
export function TeamForm({ team, people, onSaved, onCancel }: { team?: Team; people: readonly Member[]; onSaved(team: Team): void; onCancel(): void }) {
  const api = useApi();
  const me = useMember();
  const action = useAction();
  const [draft, setDraft] = useState<Draft>(() => draftOf(team));
  const [holiday, setHoliday] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const id = (field: string) => `team-form-${field}`;

  const toggleMember = (memberId: string) => set({ members: draft.members.includes(memberId) ? draft.members.filter((m) => m !== memberId) : [...draft.members, memberId] });
  const addHoliday = () => {
    if (!holiday) return;
    if (!draft.holidays.includes(holiday)) set({ holidays: [...draft.holidays, holiday].sort() });
    setHoliday('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() => (team ? api.updateTeam(team.id, changeOf(draft)) : api.createTeam(newTeamOf(draft))));
    if (saved) onSaved(saved);
  };

  const described = (binding: { 'aria-describedby'?: string }, hint: string) => [hint, binding['aria-describedby']].filter(Boolean).join(' ');
  const capacity = action.bind('capacity_per_member');
  const reassign = action.bind('reassign_after_seconds');
  const closed = action.bind('closed_message');
  const membersBinding = action.bind('members', { nested: true });
  const holidaysBinding = action.bind('holidays', { nested: true });
  const title = team ? `Edit team ${team.name}` : 'New team';

  return (
    // noValidate: the API names what is wrong with a field, beside it, in the same words as every other form.
    <form className="form card team-form" onSubmit={(e) => void submit(e)} aria-label={title} noValidate>
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <label>
        Name
        <input value={draft.name} onChange={(e) => set({ name: e.target.value })} maxLength={80} autoComplete="off" placeholder="e.g. Sales, Support, Spanish speakers" {...action.bind('name')} />
      </label>
      {action.fieldError('name')}

      <fieldset aria-describedby={described(membersBinding, id('members-hint'))} onInput={membersBinding.onInput}>
        <legend>Members</legend>
        <p id={id('members-hint')} className="small muted">
          The people who answer this team’s conversations.
        </p>
        {people.length === 0 && <p className="small muted">No one in your team yet: invite people on the Team page.</p>}
        <div className="team-members-choice">
          {people.map((person) => (
            <label key={person.id} className="checkbox">
              <input type="checkbox" checked={draft.members.includes(person.id)} onChange={() => toggleMember(person.id)} />
              <span>
                {person.name}
                {person.id === me?.id && <> <span className="muted">(you)</span></>}
                {person.status === 'invited' && <> <span className="muted">(invited)</span></>}
              </span>
            </label>
          ))}
        </div>
        {action.fieldError('members', { nested: true })}
      </fieldset>

      <fieldset>
        <legend>How conversations are shared</legend>
        {TEAM_ROUTINGS.map((routing) => (
          <label key={routing} className="radio">
            <input type="radio" name="team-routing" value={routing} checked={draft.routing === routing} onChange={() => set({ routing })} aria-describedby={id(`routing-${routing}`)} />
            <span>
              {ROUTING_WORDS[routing].name}{' '}
              <span id={id(`routing-${routing}`)} className="block small muted">
                {ROUTING_WORDS[routing].help}
              </span>
            </span>
          </label>
        ))}
        {action.fieldError('routing')}
        <p className="small muted">Only members who are available (signed in, not set to away) get new conversations.</p>
        <div className="row wrap">
          <label>
            Most open conversations per member
            <input
              type="number"
              min={1}
              max={1000}
              step={1}
              inputMode="numeric"
              value={draft.capacity}
              onChange={(e) => set({ capacity: e.target.value })}
              {...capacity}
              aria-describedby={described(capacity, id('capacity-hint'))}
            />
          </label>
          <label>
            Reassign after (minutes)
            <input
              type="number"
              min={1}
              max={1440}
              step={1}
              inputMode="numeric"
              value={draft.reassignMinutes}
              onChange={(e) => set({ reassignMinutes: e.target.value })}
              {...reassign}
              aria-describedby={described(reassign, id('reassign-hint'))}
            />
          </label>
        </div>
        <p id={id('capacity-hint')} className="small muted">
          Empty: no limit.
        </p>
        {action.fieldError('capacity_per_member')}
        <p id={id('reassign-hint')} className="small muted">
          When the member a conversation went to sends nothing for this long, it goes to the next one. Empty: never.
        </p>
        {action.fieldError('reassign_after_seconds')}
      </fieldset>

      <fieldset>
        <legend>Business hours</legend>
        <p className="small muted">Outside these hours conversations wait, and the customer is told when you open. A day without hours is closed; an end at 00:00 is midnight.</p>
        <TimeZoneField value={draft.timezone} onChange={(timezone) => set({ timezone })} field={action.bind('timezone')} />
        {action.fieldError('timezone')}
        <OpeningHoursEditor hours={draft.hours} onChange={(hours) => set({ hours })} field={action.bind('business_hours', { nested: true })} />
        {action.fieldError('business_hours', { nested: true })}
      </fieldset>

      <fieldset aria-describedby={holidaysBinding['aria-describedby']} onInput={holidaysBinding.onInput}>
        <legend>Holidays</legend>
        {draft.holidays.length === 0 ? (
          <p className="small muted">None: the team keeps its hours every week.</p>
        ) : (
          <ul className="team-holidays" aria-label="Holidays">
            {draft.holidays.map((date) => (
              <li key={date}>
                {dateInWords(date)}
                <button type="button" className="secondary button-small" onClick={() => set({ holidays: draft.holidays.filter((d) => d !== date) })} aria-label={`Remove holiday ${dateInWords(date)}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="row wrap">
          <label>
            Closed all day on
            <input type="date" value={holiday} onChange={(e) => setHoliday(e.target.value)} />
          </label>
          <button type="button" className="secondary" onClick={addHoliday} disabled={!holiday}>
            Add holiday
          </button>
        </div>
        {action.fieldError('holidays', { nested: true })}
      </fieldset>

      <label>
        Message outside business hours <span className="muted">(optional)</span>
        <textarea
          value={draft.closedMessage}
          onChange={(e) => set({ closedMessage: e.target.value })}
          rows={2}
          maxLength={1024}
          {...closed}
          aria-describedby={described(closed, id('closed-hint'))}
        />
      </label>
      <p id={id('closed-hint')} className="small muted">
        What a customer who needs a person is told while the team is closed, with the time it opens. Empty: a standard message in the customer’s language.
      </p>
      {action.fieldError('closed_message')}

      <fieldset>
        <legend>Response targets (SLA)</legend>
        <p className="small muted">Counted from the moment a conversation reaches the team. The inbox shows when each is due, and flags a missed one. Empty: no target.</p>
        <TargetField label="First reply within" value={draft.firstResponse} onChange={(firstResponse) => set({ firstResponse })} field={action.bind('sla.first_response_seconds')} />
        {action.fieldError('sla.first_response_seconds')}
        <TargetField label="Resolved within" value={draft.resolution} onChange={(resolution) => set({ resolution })} field={action.bind('sla.resolution_seconds')} />
        {action.fieldError('sla.resolution_seconds')}
        {action.fieldError('sla')}
      </fieldset>

      <ErrorNotice error={action.error} />
      <div className="row wrap">
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Saving…' : team ? 'Save changes' : 'Create team'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** An amount of minutes or hours. */
function TargetField({
  label,
  value,
  onChange,
  field,
}: {
  label: string;
  value: Target;
  onChange(value: Target): void;
  field: { 'aria-invalid'?: boolean; 'aria-describedby'?: string; onInput(): void };
}) {
  return (
    <div className="row wrap team-target">
      <label>
        {label}
        <input type="number" min={1} step={1} inputMode="numeric" value={value.amount} onChange={(e) => onChange({ ...value, amount: e.target.value })} {...field} />
      </label>
      <label>
        <span className="visually-hidden">{label}: unit</span>
        <select value={value.unit} onChange={(e) => onChange({ ...value, unit: e.target.value as Unit })} onInput={field.onInput}>
          <option value="minutes">minutes</option>
          <option value="hours">hours</option>
        </select>
      </label>
    </div>
  );
}
