import type { Campaign, CampaignAction } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { useAction, useAsync, type LiveRefresh } from '../../components/use-async';
import { Link } from '../../router';
import { useApi } from '../../session/session';
import { ACTIONS_BY_STATUS, ACTION_LABELS, progressOf } from './campaign-actions';
import { CampaignStatusBadge } from './campaign-status';

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
  const campaign = useAsync(() => api.campaign(id), `campaign:${id}`, CAMPAIGN_LIVE);
  const recipients = useAsync(() => api.campaignRecipients(id), `campaign-recipients:${id}`, CAMPAIGN_LIVE);
  const action = useAction();
  const act = async (what: CampaignAction) => {
    if (await action.run(() => api.campaignAction(id, what))) {
      campaign.reload();
      recipients.reload();
    }
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
                  Estimated cost: <strong>{c.estimate.amount} {c.estimate.currency}</strong>
                </p>
              )}
              <div className="row wrap" role="group" aria-label="Campaign actions">
                {ACTIONS_BY_STATUS[c.status].map((what) => (
                  <button key={what} type="button" className={what === 'cancel' ? 'danger' : what === 'pause' ? 'secondary' : ''} disabled={action.pending} onClick={() => void act(what)}>
                    {ACTION_LABELS[what]}
                  </button>
                ))}
              </div>
              <ErrorNotice error={action.error} />
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
      <h3>Recipients</h3>
      <AsyncView state={recipients} what="recipients" isEmpty={(p) => p.data.length === 0} empty="The recipients are listed once the campaign starts.">
        {(page) => (
          <div className="table-wrap">
            <table>
              <caption className="small muted">{page.next_cursor ? 'The first 100 recipients' : 'Every recipient'}</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Status</th>
                  <th scope="col">Replied</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((r) => (
                  <tr key={r.contact_id}>
                    <td>{r.phone}</td>
                    <td>
                      <span className={`status status-${r.status}`}>{r.status.replace(/_/g, ' ')}</span>
                    </td>
                    <td>{r.replied_at ? formatTime(r.replied_at) : ''}</td>
                    <td>{r.error ? `${r.error.code} ${r.error.title}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </AsyncView>
    </section>
  );
}
