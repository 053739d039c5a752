import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import type { RoutingMatch, RoutingRule, Team } from '../../api';
import { CHANNEL_KINDS, channelLabel } from '../../components/channel';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { ROUTING_RULES_KEY } from './teams-data';

type Kind = keyof RoutingMatch;

/** What a condition looks at, and how its value reads after it ("When the message contains refund"). */
const KINDS: Record<Kind, { label: string; verb: string }> = {
  channel: { label: 'the channel', verb: 'is' },
  skill: { label: 'the AI skill handing over', verb: 'is' },
  keyword: { label: 'the customer’s message', verb: 'contains' },
  contact_tag: { label: 'the contact’s tags', verb: 'include' },
};
const KIND_ORDER = Object.keys(KINDS) as Kind[];

/** The skills that hand a conversation over, and `human`: the customer asked for a person. */
const SKILL_WORDS: Record<string, string> = {
  human: 'the customer asked for a person',
  faq_responder: 'answering questions',
  lead_capture: 'capturing a lead',
  appointment_booking: 'booking an appointment',
};

interface Condition {
  kind: Kind;
  value: string;
}

/** A rule as the editor holds it: its conditions, all of which must hold (none: every conversation), and its team. */
interface Row {
  key: number;
  conditions: Condition[];
  team_id: string;
}

let nextKey = 1;
const rowOf = (rule: RoutingRule): Row => ({
  key: nextKey++,
  conditions: KIND_ORDER.filter((kind) => rule.match[kind] !== undefined).map((kind) => ({ kind, value: rule.match[kind] ?? '' })),
  team_id: rule.team_id,
});
/** Typed values as typed but trimmed: an empty keyword goes to the API, which refuses it (rather than a match-all rule). */
const ruleOf = (row: Row): RoutingRule => ({ match: Object.fromEntries(row.conditions.map((c) => [c.kind, c.value.trim()])), team_id: row.team_id });
const defaultValue = (kind: Kind) => (kind === 'channel' ? 'whatsapp' : kind === 'skill' ? 'human' : '');

/**
 * The routing rules: an ordered list of "When … → team", the first that holds picking the team of a conversation the
 * AI agent hands over (none: the default team). Saved whole; a refused rule says why in its own row.
 */
export function RoutingRules({ teams }: { teams: readonly Team[] | undefined }) {
  const api = useApi();
  const queries = useQueryClient();
  const rules = useLiveQuery(ROUTING_RULES_KEY, () => api.routingRules());
  const [edited, setEdited] = useState<Row[]>();
  const [saved, setSaved] = useState(false);
  const action = useAction();
  // until edited, the rules as stored
  const stored = useMemo(() => rules.data?.data.map(rowOf), [rules.data]);
  const rows = edited ?? stored ?? [];
  const defaultTeam = teams?.[0];

  const change = (next: Row[], { keepErrors }: { keepErrors?: boolean } = {}) => {
    setEdited(next);
    setSaved(false);
    // a moved, added or removed rule changes the positions the API's refusal named
    if (!keepErrors) action.clearError();
  };
  const update = (index: number, patch: Partial<Row>) => change(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)), { keepErrors: true });
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    change(next);
  };
  const add = () => {
    if (!defaultTeam) return;
    change([...rows, { key: nextKey++, conditions: [{ kind: 'keyword', value: '' }], team_id: defaultTeam.id }]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const result = await action.run(() => api.saveRoutingRules(rows.map(ruleOf)));
    if (!result) return;
    queries.setQueryData(ROUTING_RULES_KEY, result);
    setEdited(undefined);
    setSaved(true);
  };

  return (
    <section className="card routing-rules" aria-labelledby="routing-rules-title">
      <h2 id="routing-rules-title">Routing rules</h2>
      <p className="muted small">
        When the AI agent hands a conversation to a person, the first rule that matches picks the team.
        {defaultTeam ? ` Conversations no rule matches go to ${defaultTeam.name}, your default team.` : ''}
      </p>
      {teams && teams.length === 0 ? (
        <p className="small muted">Make a team first: rules send conversations to teams.</p>
      ) : (
        <AsyncView state={rules} what="the routing rules">
          {() => (
            <form className="form" onSubmit={(e) => void submit(e)} aria-label="Routing rules" noValidate>
              {rows.length === 0 ? (
                <p className="small muted">No rules: every conversation handed over goes to the default team.</p>
              ) : (
                <ol className="rule-list" aria-label="Rules, first match wins">
                  {rows.map((row, index) => (
                    <RuleEditor
                      key={row.key}
                      row={row}
                      index={index}
                      count={rows.length}
                      teams={teams ?? []}
                      action={action}
                      onChange={(patch) => update(index, patch)}
                      onMove={(by) => move(index, by)}
                      onRemove={() => change(rows.filter((_, i) => i !== index))}
                    />
                  ))}
                </ol>
              )}
              <ErrorNotice error={action.error} />
              <div className="row wrap">
                <button type="button" className="secondary" onClick={add} disabled={!defaultTeam}>
                  Add a rule
                </button>
                <button type="submit" disabled={action.pending}>
                  {action.pending ? 'Saving…' : 'Save rules'}
                </button>
                {edited && !action.pending && <span className="small muted">Unsaved changes</span>}
                {saved && (
                  <span className="small" role="status">
                    Saved.
                  </span>
                )}
              </div>
            </form>
          )}
        </AsyncView>
      )}
    </section>
  );
}

function RuleEditor({
  row,
  index,
  count,
  teams,
  action,
  onChange,
  onMove,
  onRemove,
}: {
  row: Row;
  index: number;
  count: number;
  teams: readonly Team[];
  action: ReturnType<typeof useAction>;
  onChange(patch: Partial<Row>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const n = index + 1;
  const at = `[${index}]`;
  const setCondition = (j: number, condition: Condition) => onChange({ conditions: row.conditions.map((c, k) => (k === j ? condition : c)) });
  const unused = KIND_ORDER.filter((kind) => !row.conditions.some((c) => c.kind === kind));
  const known = teams.some((t) => t.id === row.team_id);
  return (
    <li className="rule" data-testid="routing-rule">
      <fieldset>
        <legend>Rule {n}</legend>
        {row.conditions.length === 0 && <p className="rule-line">Every conversation</p>}
        {row.conditions.map((condition, j) => {
          const name = `Rule ${n}${row.conditions.length > 1 ? `, condition ${j + 1}` : ''}`;
          const field = `${at}.match.${condition.kind}`;
          return (
            <div className="rule-line" key={condition.kind}>
              <span>{j === 0 ? 'When' : 'and'}</span>
              <select
                aria-label={`${name}: what to look at`}
                value={condition.kind}
                onChange={(e) => setCondition(j, { kind: e.target.value as Kind, value: defaultValue(e.target.value as Kind) })}
              >
                {KIND_ORDER.filter((kind) => kind === condition.kind || unused.includes(kind)).map((kind) => (
                  <option key={kind} value={kind}>
                    {KINDS[kind].label}
                  </option>
                ))}
              </select>
              <span>{KINDS[condition.kind].verb}</span>
              <ConditionValue condition={condition} label={`${name}: ${KINDS[condition.kind].label}`} onChange={(value) => setCondition(j, { ...condition, value })} field={action.bind(field)} />
              {row.conditions.length > 1 && (
                <button
                  type="button"
                  className="secondary button-small"
                  aria-label={`Remove condition ${j + 1} of rule ${n}`}
                  onClick={() => onChange({ conditions: row.conditions.filter((_, k) => k !== j) })}
                >
                  Remove
                </button>
              )}
            </div>
          );
        })}
        <div className="rule-line">
          <span>
            <span aria-hidden="true">→ </span>send to
          </span>
          <select aria-label={`Rule ${n}: send to team`} value={row.team_id} onChange={(e) => onChange({ team_id: e.target.value })} {...action.bind(`${at}.team_id`)}>
            {!known && <option value={row.team_id}>a deleted team</option>}
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
        {action.fieldError(at, { nested: true })}
        <div className="actions">
          {unused.length > 0 && (
            <button
              type="button"
              className="secondary button-small"
              aria-label={`Add a condition to rule ${n}`}
              onClick={() => onChange({ conditions: [...row.conditions, { kind: unused[0], value: defaultValue(unused[0]) }] })}
            >
              And…
            </button>
          )}
          <button type="button" className="secondary button-small" aria-label={`Move rule ${n} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑ Up
          </button>
          <button type="button" className="secondary button-small" aria-label={`Move rule ${n} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
            ↓ Down
          </button>
          <button type="button" className="danger button-small" aria-label={`Remove rule ${n}`} onClick={onRemove}>
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** A condition's value: a channel or a skill chosen from a list, a keyword or a tag typed. */
function ConditionValue({
  condition,
  label,
  onChange,
  field,
}: {
  condition: Condition;
  label: string;
  onChange(value: string): void;
  field: ReturnType<ReturnType<typeof useAction>['bind']>;
}) {
  if (condition.kind === 'channel' || condition.kind === 'skill') {
    const options: [string, string][] =
      condition.kind === 'channel' ? CHANNEL_KINDS.map((kind) => [kind, channelLabel(kind)]) : Object.entries(SKILL_WORDS);
    // a value set through the API that is none of these (a channel's own id, a newer skill) stays as it is
    const other = !options.some(([value]) => value === condition.value);
    return (
      <select aria-label={label} value={condition.value} onChange={(e) => onChange(e.target.value)} {...field}>
        {other && <option value={condition.value}>{condition.kind === 'channel' ? 'one particular number or address' : condition.value}</option>}
        {options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      aria-label={label}
      value={condition.value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={condition.kind === 'keyword' ? 100 : 64}
      placeholder={condition.kind === 'keyword' ? 'e.g. refund' : 'e.g. vip'}
      autoComplete="off"
      {...field}
    />
  );
}
