import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { REPORT_GROUPINGS, type ConversationReportRow, type ReportGrouping, type ReportPeriod } from '../../api';
import { channelLabel } from '../../components/channel';
import { DataTable, type Column } from '../../components/data-table';
import { Empty, ErrorNotice, Loading } from '../../components/feedback';
import { countOf } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { useAction } from '../../components/use-action';
import { useApi, useMember } from '../../session/session';
import { downloadBlob } from '../billing/download';
import { useTeamMembers } from '../inbox/team-members';
import { BROWSER_TIME_ZONE, useTeams } from '../team/teams-data';
import { ReportChart } from './report-chart';
import {
  GROUPINGS,
  PERIOD_CHOICES,
  csatInWords,
  dayInWords,
  durationInWords,
  localDay,
  percentOf,
  periodInWords,
  periodTotals,
  presetDays,
  reportErrorText,
  spansYears,
  type Days,
  type PeriodChoice,
} from './report-words';
import './reports.css';

/** Under every report read; a change of period or grouping is a new key. */
export const REPORTS_KEY = ['reports', 'conversations'] as const;
const NONE = '—';

/**
 * Reports (CONTRACT.md §18): for a period in the reader's time zone, how many conversations came in, how many the AI
 * agent resolved alone and how many went to a person, how fast people answered and resolved them, missed targets and
 * what customers rated; per day, team member, team or channel, with the period's totals on top and the conversations
 * themselves as a CSV file. A member of role `agent` sees only the conversations assigned to them (the API scopes it).
 */
export function ReportsPage() {
  const api = useApi();
  const me = useMember();
  const [choice, setChoice] = useState<PeriodChoice>('last_7_days');
  const [custom, setCustom] = useState<Days>(() => presetDays('last_7_days'));
  const [grouping, setGrouping] = useState<ReportGrouping>('day');
  const days = choice === 'custom' ? custom : presetDays(choice);
  const period: ReportPeriod = { ...days, tz: BROWSER_TIME_ZONE };
  const report = useQuery({
    queryKey: [...REPORTS_KEY, period.from, period.to, period.tz, grouping],
    // what was asked travels with the answer: while the next one loads, the rows shown keep their own grouping's names
    queryFn: async () => ({ rows: (await api.conversationReport(period, grouping)).data, grouping, days }),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
  const onlyOwn = me?.role === 'agent';

  return (
    <section>
      <PageHeader title="Reports">How your conversations went: how many came in, what the AI agent resolved on its own, what went to a person and how fast they answered.</PageHeader>
      {onlyOwn && (
        <p className="notice" data-testid="own-rows-notice">
          You see only the conversations assigned to you. Owners and admins see everyone’s.
        </p>
      )}
      <div className="card report-controls">
        <PeriodPicker
          choice={choice}
          days={days}
          onChoice={(next) => {
            if (next === 'custom') setCustom(days);
            setChoice(next);
          }}
          onCustom={setCustom}
        />
        <GroupingSwitch value={grouping} onChange={setGrouping} />
        <ExportCsv period={period} />
      </div>
      <p className="muted small" data-testid="report-period">
        {periodInWords(days)}, in your time zone ({BROWSER_TIME_ZONE}).
      </p>
      {report.error && <ErrorNotice error={reportErrorText(report.error)} />}
      {report.data === undefined ? (
        !report.error && <Loading what="the report" />
      ) : (
        <>
          {report.isPlaceholderData && (
            <p className="muted" role="status" aria-live="polite">
              Updating the report…
            </p>
          )}
          {report.data.rows.length === 0 ? (
            <Empty>{onlyOwn ? 'None of the conversations assigned to you started in this period.' : 'No conversations started in this period.'}</Empty>
          ) : (
            <Shown {...report.data} />
          )}
        </>
      )}
    </section>
  );
}

function PeriodPicker({ choice, days, onChoice, onCustom }: { choice: PeriodChoice; days: Days; onChoice(choice: PeriodChoice): void; onCustom(days: Days): void }) {
  const [draft, setDraft] = useState<Days>(days);
  const today = localDay(new Date());
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onCustom(draft);
  };
  return (
    <div className="report-period">
      <label>
        Period
        <select
          value={choice}
          onChange={(e) => {
            const next = e.target.value as PeriodChoice;
            if (next === 'custom') setDraft(days);
            onChoice(next);
          }}
        >
          {PERIOD_CHOICES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {choice === 'custom' && (
        <form className="row wrap report-custom" aria-label="Custom dates" onSubmit={apply}>
          <label>
            From
            <input type="date" required value={draft.from} max={today} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </label>
          <label>
            To
            <input type="date" required value={draft.to} min={draft.from} max={today} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </label>
          <button type="submit" className="secondary">
            Show
          </button>
        </form>
      )}
    </div>
  );
}

function GroupingSwitch({ value, onChange }: { value: ReportGrouping; onChange(grouping: ReportGrouping): void }) {
  return (
    <fieldset className="report-grouping">
      <legend>Group</legend>
      {REPORT_GROUPINGS.map((g) => (
        <label key={g} className="radio">
          <input type="radio" name="report-grouping" value={g} checked={value === g} onChange={() => onChange(g)} />
          <span>{GROUPINGS[g].label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** The period's conversations as a CSV file, fetched with the session's credential (a plain link could not carry a key). */
function ExportCsv({ period }: { period: ReportPeriod }) {
  const api = useApi();
  const action = useAction();
  const exportCsv = async () => {
    const csv = await action.run(() => api.conversationReportCsv(period));
    if (csv) downloadBlob(csv, `conversations-${period.from}-to-${period.to}.csv`);
  };
  return (
    <div className="report-export">
      <button type="button" className="secondary" disabled={action.pending} onClick={() => void exportCsv()}>
        {action.pending ? 'Preparing the CSV…' : 'Export CSV'}
      </button>
      <p className="small muted">One line per conversation.</p>
      <ErrorNotice error={action.error} />
    </div>
  );
}

function Shown({ rows, grouping, days }: { rows: readonly ConversationReportRow[]; grouping: ReportGrouping; days: Days }) {
  return <KeyNames grouping={grouping}>{(nameOf) => <Report rows={rows} grouping={grouping} days={days} nameOf={nameOf} />}</KeyNames>;
}

/** Gives the report the names of its keys: members and teams read from their own routes only when grouped by them. */
function KeyNames({ grouping, children }: { grouping: ReportGrouping; children: (nameOf: (key: string | null) => string) => ReactNode }) {
  switch (grouping) {
    case 'member':
      return <MemberNames>{children}</MemberNames>;
    case 'team':
      return <TeamNames>{children}</TeamNames>;
    case 'channel':
      return <>{children((key) => (key === null ? 'No channel' : channelLabel(key)))}</>;
    case 'day':
      return <>{children((key) => (key === null ? 'No day' : dayInWords(key)))}</>;
  }
}

function MemberNames({ children }: { children: (nameOf: (key: string | null) => string) => ReactNode }) {
  const people = useTeamMembers();
  const me = useMember();
  const nameOf = (key: string | null) => {
    if (key === null) return 'Unassigned';
    const person = people.find((p) => p.id === key);
    // an empty list is one not read yet (the team always has the reader, or its owner)
    if (!person) return people.length ? 'Someone no longer in the team' : 'A team member';
    return key === me?.id ? `${person.name} (you)` : person.name;
  };
  return <>{children(nameOf)}</>;
}

function TeamNames({ children }: { children: (nameOf: (key: string | null) => string) => ReactNode }) {
  const teams = useTeams();
  const nameOf = (key: string | null) => {
    if (key === null) return 'No team';
    if (!teams.data) return 'A team';
    return teams.data.data.find((t) => t.id === key)?.name ?? 'A deleted team';
  };
  return <>{children(nameOf)}</>;
}

function Report({ rows, grouping, days, nameOf }: { rows: readonly ConversationReportRow[]; grouping: ReportGrouping; days: Days; nameOf: (key: string | null) => string }) {
  const withYear = grouping === 'day' && spansYears(days);
  const label = (key: string | null) => (grouping === 'day' && key !== null ? dayInWords(key, withYear) : nameOf(key));
  const sorted = [...rows].sort((a, b) => {
    if (grouping === 'day') return (a.key ?? '').localeCompare(b.key ?? '');
    if (a.key === null || b.key === null) return a.key === null ? 1 : -1; // "Unassigned", "No team" last
    return b.opened - a.opened || label(a.key).localeCompare(label(b.key));
  });
  return (
    <>
      <HeadlineCards rows={rows} grouping={grouping} />
      <h2>Opened and handed to a person</h2>
      <ReportChart rows={sorted} grouping={grouping} days={days} nameOf={label} />
      <h2>{GROUPINGS[grouping].label}</h2>
      <div className="table-wrap report-table" tabIndex={0} role="region" aria-label="Report table">
        <DataTable
          caption={`Conversations ${GROUPINGS[grouping].label.toLowerCase()}, ${periodInWords(days)}`}
          rows={sorted}
          rowKey={(r) => r.key ?? 'none'}
          rowProps={() => ({ 'data-testid': 'report-row' })}
          columns={columns(grouping, label)}
          stacked
        />
      </div>
    </>
  );
}

function columns(grouping: ReportGrouping, label: (key: string | null) => string): Column<ConversationReportRow>[] {
  return [
    { header: GROUPINGS[grouping].column, cell: (r) => label(r.key) },
    { header: 'Conversations', cell: (r) => r.opened.toLocaleString() },
    { header: 'Closed', cell: (r) => r.closed.toLocaleString() },
    { header: 'Resolved by AI alone', cell: (r) => `${r.resolved_by_agent.toLocaleString()} (${percentOf(r.resolved_by_agent, r.opened) ?? '0%'})` },
    { header: 'Handed to a person', cell: (r) => r.handed_off.toLocaleString() },
    { header: 'Median first reply', cell: (r) => durationInWords(r.first_response_p50_s) ?? NONE },
    { header: '9 in 10 first replies within', cell: (r) => durationInWords(r.first_response_p90_s) ?? NONE },
    { header: 'Median time to resolve', cell: (r) => durationInWords(r.resolution_p50_s) ?? NONE },
    { header: '9 in 10 resolved within', cell: (r) => durationInWords(r.resolution_p90_s) ?? NONE },
    { header: 'Missed response targets', cell: (r) => r.sla_breaches.toLocaleString() },
    { header: 'Customer rating', cell: (r) => csatInWords(r.csat_avg, r.csat_count) },
  ];
}

/**
 * The whole period's figures. Counts add up over the rows; a median does not (the median of medians is not the
 * period's), so the time cards show a figure only when one row holds the whole period, and otherwise point at the rows.
 */
function HeadlineCards({ rows, grouping }: { rows: readonly ConversationReportRow[]; grouping: ReportGrouping }) {
  const totals = periodTotals(rows);
  const single = rows.length === 1 ? rows[0] : undefined;
  const perRow = `Shown for ${GROUPINGS[grouping].each} below`;
  const time = (p50: number | null | undefined, p90: number | null | undefined, none: string) => {
    if (!single) return { value: perRow, words: true, note: 'A median for the whole period cannot be added up from the rows.' };
    const median = durationInWords(p50 ?? null);
    const ninety = durationInWords(p90 ?? null);
    return { value: median ?? none, words: median === undefined, note: ninety && `9 in 10 within ${ninety}` };
  };
  const firstReply = time(single?.first_response_p50_s, single?.first_response_p90_s, 'No replies by a person yet');
  const resolution = time(single?.resolution_p50_s, single?.resolution_p90_s, 'None closed yet');
  return (
    <dl className="report-cards" aria-label="The whole period">
      <Card id="opened" title="Conversations" value={totals.opened.toLocaleString()} note={`${totals.closed.toLocaleString()} closed`} />
      <Card
        id="resolved-by-ai"
        title="Resolved by the AI agent alone"
        value={percentOf(totals.resolvedByAgent, totals.opened) ?? NONE}
        note={`${totals.resolvedByAgent.toLocaleString()} of ${totals.opened.toLocaleString()} without a person`}
      />
      <Card
        id="handed-off"
        title="Handed to a person"
        value={totals.handedOff.toLocaleString()}
        note={percentOf(totals.handedOff, totals.opened) && `${percentOf(totals.handedOff, totals.opened)} of conversations`}
      />
      <Card id="first-reply" title="Median first reply by a person" {...firstReply} />
      <Card id="resolution" title="Median time to resolve" {...resolution} />
      <Card id="sla-breaches" title="Missed response targets" value={totals.slaBreaches.toLocaleString()} note="Conversations that missed a team’s target" />
      <Card
        id="csat"
        title="Customer rating"
        value={
          totals.csatAverage === null ? (
            csatInWords(null, 0)
          ) : (
            <>
              {totals.csatAverage.toFixed(1)} / 5 <span className="report-figure-count">({countOf(totals.csatCount, 'rating')})</span>
            </>
          )
        }
        words={totals.csatAverage === null}
      />
    </dl>
  );
}

/** A headline figure; `words`: a sentence rather than a figure ("No ratings yet"), shown smaller. */
function Card({ id, title, value, note, words }: { id: string; title: string; value: ReactNode; note?: string; words?: boolean }) {
  return (
    <div className="report-card" data-testid={`card-${id}`}>
      <dt>{title}</dt>
      <dd className={words ? 'report-figure report-figure-words' : 'report-figure'}>{value}</dd>
      {note && <dd className="small muted">{note}</dd>}
    </div>
  );
}
