import { AsyncView } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { type LiveRefresh, useLiveQuery } from '../../components/live-query';
import { PageHeader } from '../../components/page-header';
import { Link, useRouter } from '../../router';
import { useApi } from '../../session/session';
import { progressOf } from './campaign-actions';
import { CampaignDetail } from './campaign-detail';
import { CampaignForm } from './campaign-form';
import { CampaignStatusBadge } from './campaign-status';

const LIST_LIVE: LiveRefresh = { events: ['message.status', 'campaign.completed'], delaysMs: [2000] };

/** Campaigns: the list and a new one at `/campaigns`, one campaign's live progress at `/campaigns/{id}`. */
export function CampaignsPage() {
  const { path } = useRouter();
  const openId = path.startsWith('/campaigns/') ? decodeURIComponent(path.slice('/campaigns/'.length)) : undefined;
  return (
    <section>
      <PageHeader title="Campaigns">
        One approved template to every contact with the tags you choose, once each, at a pace that leaves room for your agent’s replies.
      </PageHeader>
      {openId ? <CampaignDetail id={openId} /> : <CampaignList />}
    </section>
  );
}

function CampaignList() {
  const api = useApi();
  const campaigns = useLiveQuery(['campaigns'], () => api.listCampaigns(), LIST_LIVE);
  return (
    <>
      <CampaignForm />
      <section aria-labelledby="campaigns-title">
        <h2 id="campaigns-title">Your campaigns</h2>
        <AsyncView state={campaigns} what="campaigns" isEmpty={(p) => p.data.length === 0} empty="No campaign yet: create one above.">
          {(page) => (
            <ul className="list">
              {page.data.map((c) => {
                const progress = progressOf(c.counts);
                return (
                  <li key={c.id} data-testid="campaign-item">
                    <div className="row wrap">
                      <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                      <CampaignStatusBadge status={c.status} />
                      <span className="small muted">
                        {progress.of > 0 ? `${progress.done} of ${progress.of} handed over · ${c.counts.sent} sent · ${c.counts.replied} replied` : `created ${formatTime(c.created_at)}`}
                      </span>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </AsyncView>
      </section>
    </>
  );
}
