import type { MonthUsageRecord } from '../api';
import { AsyncView } from '../components/feedback';
import { countOf, formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useLiveQuery } from '../components/live-query';
import { useApi } from '../session/session';
import { MONTH_USAGE_KEY, WALLET_KEY } from './billing/billing-keys';
import { allowanceSentence } from './billing/allowance';
import { DataTable } from '../components/data-table';

const CHANNELS: Record<string, string> = { whatsapp: 'WhatsApp', sms: 'SMS', email: 'Email', voice: 'Voice', llm: 'AI agent' };
const CATEGORIES: Record<string, string> = {
  service: 'Replies within 24 hours',
  marketing: 'Marketing templates',
  utility: 'Utility templates',
  authentication: 'Authentication templates',
  sms: 'Text messages (segments)',
  email: 'Emails',
  voice_minute: 'Call minutes',
  llm_token: 'LLM tokens',
};
/** Usage that is no message: listed, but it never uses up the free allowance. */
const NOT_MESSAGES = new Set(['voice_minute', 'llm_token']);

/**
 * This month's messages per channel and category against the plan's free allowance (billing-service's metering), and
 * what happens once it is used; today's API requests against the daily quota beneath, as a secondary line.
 */
export function UsagePage() {
  const api = useApi();
  const month = useLiveQuery(MONTH_USAGE_KEY, () => api.monthUsage());
  const wallet = useLiveQuery(WALLET_KEY, () => api.wallet());
  const requests = useLiveQuery(['usage', 'requests'], () => api.usage());
  return (
    <section>
      <PageHeader title="Usage">The messages you sent this month on every channel, against your plan’s free allowance.</PageHeader>
      <h2>Messages this month</h2>
      <AsyncView state={month} what="this month’s usage">
        {(m) => (
          <div className="card">
            <AllowanceMeter month={m} />
            {wallet.data && <p data-testid="allowance">{allowanceSentence(m, wallet.data)}</p>}
            <MonthTable month={m} />
          </div>
        )}
      </AsyncView>
      <h2>API requests today</h2>
      <AsyncView state={requests} what="API requests">
        {(u) => (
          <p className="muted" data-testid="usage-summary">
            {u.limit === null ? `${countOf(u.used_today, 'API request')} today (unlimited plan).` : `${u.used_today} of ${u.limit} requests used today (API calls, this page’s own included).`} Resets{' '}
            {formatTime(u.resets_at)}.
          </p>
        )}
      </AsyncView>
    </section>
  );
}

function AllowanceMeter({ month }: { month: MonthUsageRecord }) {
  const messages = month.messages.toLocaleString('en-US');
  if (month.free_allowance === null) {
    return (
      <p data-testid="month-summary">
        <strong>{messages}</strong> {month.messages === 1 ? 'message' : 'messages'} this month on the {month.plan} plan.
      </p>
    );
  }
  const used = Math.min(month.messages, month.free_allowance);
  return (
    <>
      <p data-testid="month-summary">
        <strong>{used.toLocaleString('en-US')}</strong> of {month.free_allowance.toLocaleString('en-US')} free messages used this month
        {month.messages > month.free_allowance && `, ${(month.messages - month.free_allowance).toLocaleString('en-US')} paid`}.
      </p>
      <progress max={month.free_allowance} value={used} aria-label="Free messages used this month">
        {Math.round((used / month.free_allowance) * 100)}%
      </progress>
    </>
  );
}

function MonthTable({ month }: { month: MonthUsageRecord }) {
  if (!month.data.length) return <p className="muted">Nothing sent this month yet.</p>;
  return (
    <div className="table-wrap">
      <DataTable
        captionVisible
        caption={`By channel and kind, ${month.period_start.slice(0, 10)} – today (UTC)`}
        rows={month.data}
        rowKey={(line) => `${line.channel}:${line.category}`}
        columns={[
          { header: 'Channel', cell: (line) => CHANNELS[line.channel] ?? line.channel },
          {
            header: 'Kind',
            cell: (line) => (
              <>
                {CATEGORIES[line.category] ?? line.category}
                {NOT_MESSAGES.has(line.category) && <span className="muted"> (not counted as messages)</span>}
              </>
            ),
          },
          { header: 'Count', cell: (line) => line.quantity.toLocaleString('en-US') },
        ]}
      />
    </div>
  );
}
