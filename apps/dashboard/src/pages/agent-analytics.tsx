import type { AgentAnalytics as Analytics } from '../api';
import { DataTable, type Column } from '../components/data-table';
import { AsyncView } from '../components/feedback';
import { useLiveQuery } from '../components/live-query';
import { useApi } from '../session/session';

type Day = Analytics['data'][number];

const LANGUAGES: Record<string, string> = { en: 'English', es: 'Spanish', pt: 'Portuguese', fr: 'French', de: 'German' };
const COLUMNS: readonly Column<Day>[] = [
  { header: 'Day', cell: (d) => d.day },
  { header: 'Language', cell: (d) => LANGUAGES[d.language] ?? d.language },
  { header: 'Questions', cell: (d) => d.questions },
  { header: 'Answered', cell: (d) => d.answered },
  { header: 'Did not know', cell: (d) => d.not_known },
  { header: 'Handed off', cell: (d) => d.handed_off },
  { header: 'Booked', cell: (d) => d.bookings },
  { header: 'Leads', cell: (d) => d.leads },
];

/** How the AI agent did over the last 30 days (in the viewer's time zone): its replies by outcome, and what it used. */
export function AgentAnalytics({ agent }: { agent: string }) {
  const api = useApi();
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const analytics = useLiveQuery(['agents', agent, 'analytics'], () => api.agentAnalytics(agent, tz), { events: ['message.received'], delaysMs: [1500] });
  return (
    <section className="card" aria-labelledby="analytics-title">
      <h2 id="analytics-title">How it did (last 30 days)</h2>
      <AsyncView state={analytics} what="analytics" isEmpty={(a) => a.data.length === 0} empty="No replies in the last 30 days.">
        {(a) => <AnalyticsView analytics={a} />}
      </AsyncView>
    </section>
  );
}

function AnalyticsView({ analytics }: { analytics: Analytics }) {
  const total = (key: keyof Omit<Day, 'day' | 'language'>) => analytics.data.reduce((sum, d) => sum + d[key], 0);
  const questions = total('questions');
  const share = (n: number) => (questions ? ` (${Math.round((n / questions) * 100)}%)` : '');
  const { most_used: used, never_used: unused } = analytics.sources;
  return (
    <>
      <p data-testid="analytics-summary">
        {questions} {questions === 1 ? 'reply' : 'replies'}: {total('answered')} answered from what it knows{share(total('answered'))}, {total('not_known')} it did not
        know{share(total('not_known'))}, {total('handed_off')} handed to a person{share(total('handed_off'))}; {total('bookings')} booked, {total('leads')}{' '}
        {total('leads') === 1 ? 'lead' : 'leads'}.
      </p>
      <div className="table-wrap">
        <DataTable caption="Replies per day and language" columns={COLUMNS} rows={[...analytics.data].reverse()} rowKey={(d) => `${d.day}:${d.language}`} stacked />
      </div>
      {used.length > 0 && (
        <>
          <h3>Used most</h3>
          <ul className="list" aria-label="Knowledge used most">
            {used.map((s) => (
              <li key={s.id}>
                {s.title} <span className="muted">({s.type === 'faq' ? 'FAQ' : s.type}, {s.count === 1 ? 'once' : `${s.count} times`})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {unused.length > 0 && (
        <>
          <h3>Never used</h3>
          <p className="muted">Nobody asked about these in the last 30 days, or the AI agent did not find them when they did.</p>
          <ul className="list" aria-label="Knowledge never used">
            {unused.map((s) => (
              <li key={s.id}>
                {s.title} <span className="muted">({s.type === 'faq' ? 'FAQ' : s.type})</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
