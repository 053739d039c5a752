import { useState } from 'react';
import type { Campaign, CampaignAction } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { type LiveRefresh, useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { Link } from '../../router';
import { useApi } from '../../session/session';
import { InsufficientFundsNotice } from '../billing/insufficient-funds-notice';
import { formatCents } from '../billing/money';
import { ACTIONS_BY_STATUS, ACTION_LABELS, progressOf } from './campaign-actions';
import { CampaignStatusBadge } from './campaign-status';
import { RecipientsTable } from './recipients-table';
import { SendsPerMinuteChart } from './sends-chart';

/** A campaign's messages change status, its recipients write back, and it ends: each moves the counts. */
const CAMPAIGN_LIVE: LiveRefresh = { events: ['message.status', 'message.received', 'campaign.completed'], delaysMs: [1000] };

const COUNTS: { key: keyof Campaign['counts']; label: string }[] = [
  { key: 'audience', label: 'Audience' },
  { key: 'queued', label: 'Queued' },
  { key: 'sent', label: 'Sent' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'read', label: 'Read' },
  { key: 'replied', label: 'Replied' },
  { key: 'failed', label: 'Failed' },
  { key: 'skipped_opted_out', label: 'Skipped (opted out)' },
];

/** One campaign: live counts and progress, what may be done with it now, and its recipients. */
export function CampaignDetail({ id }: { id: string }) {
  const api = useApi();
  const campaign = useLiveQuery(['campaigns', id], () => api.campaign(id), CAMPAIGN_LIVE);
  const sends = useLiveQuery(['campaigns', id, 'sends-per-minute'], () => api.campaignSendsPerMinute(id), CAMPAIGN_LIVE);
  // bumped after an action: the recipients' page is loaded again
  const [version, setVersion] = useState(0);
  const action = useAction();
  const act = async (what: CampaignAction) => {
    const done = await action.run(() => api.campaignAction(id, what));
    if (done) {
      campaign.reload();
      sends.reload();
      setVersion((v) => v + 1);
    } else campaign.reload();
  };
  return (
    <section aria-labelledby="campaign-title">
      <p>
        <Link to="/campaigns">← All campaigns</Link>
      </p>
      <AsyncView state={campaign} what="the campaign">
        {(c) => {
          const progress = progressOf(c.counts);
          return (
            <>
              <div className="row wrap">
                <h2 id="campaign-title">{c.name}</h2>
                <CampaignStatusBadge status={c.status} />
              </div>
              <p className="small muted">
                Template <code>{c.template.name}</code> ({c.template.language}) · audience tags {(c.audience.tags ?? []).join(', ') || '–'} · up to {c.rate_per_second} messages a second
                {c.schedule_at && ` · scheduled for ${formatTime(c.schedule_at)}`}
                {c.started_at && ` · started ${formatTime(c.started_at)}`}
                {c.completed_at && ` · completed ${formatTime(c.completed_at)}`}
              </p>
              {c.status_reason && <p className="notice notice-warning">{c.status_reason}</p>}
              {c.estimate && (
                <p data-testid="campaign-estimate">
                  Estimated cost: <strong>{formatCents(c.estimate.amount, c.estimate.currency)}</strong>{' '}
                  <span className="small muted">(worked out at its start: its recipients × the price of its template’s category, less the free allowance then left)</span>
                </p>
              )}
              <div className="row wrap" role="group" aria-label="Campaign actions">
                {ACTIONS_BY_STATUS[c.status].map((what) => (
                  <button key={what} type="button" className={what === 'cancel' ? 'danger' : what === 'pause' ? 'secondary' : ''} disabled={action.pending} onClick={() => void act(what)}>
                    {ACTION_LABELS[what]}
                  </button>
                ))}
              </div>
              {/* a start the wallet cannot pay for: said as such, with the estimate the refusal recorded on the campaign */}
              {action.refusedStatus === 402 ? <InsufficientFundsNotice what="this campaign" cost={c.estimate} /> : <ErrorNotice error={action.error} />}
              {progress.of > 0 && (
                <label>
                  Handed over: {progress.done} of {progress.of}
                  <progress value={progress.done} max={progress.of} />
                </label>
              )}
              <dl className="campaign-counts" aria-label="Counts">
                {COUNTS.map(({ key, label }) => (
                  <div key={key}>
                    <dt>{label}</dt>
                    <dd data-testid={`count-${key}`}>{c.counts[key]}</dd>
                  </div>
                ))}
              </dl>
            </>
          );
        }}
      </AsyncView>
      <h3>Sends per minute</h3>
      <AsyncView state={sends} what="sends per minute">
        {(s) => <SendsPerMinuteChart minutes={s.data} />}
      </AsyncView>
      <h3>Recipients</h3>
      <RecipientsTable id={id} live={CAMPAIGN_LIVE} version={version} />
    </section>
  );
}
