import { AsyncView } from '../components/feedback';
import { countOf, formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAsync } from '../components/use-async';
import { useApi } from '../session/session';

/** Today's authenticated requests against the plan's daily allowance. */
export function UsagePage() {
  const api = useApi();
  const usage = useAsync(() => api.usage(), 'usage');
  return (
    <section>
      <PageHeader title="Usage">Every authenticated API request counts, this page’s own included.</PageHeader>
      <AsyncView state={usage} what="usage">
        {(u) => (
          <div className="card">
            <p>
              Plan <strong>{u.plan}</strong>
            </p>
            {u.limit === null ? (
              <p data-testid="usage-summary">
                {countOf(u.used_today, 'request')} today (unlimited plan).
              </p>
            ) : (
              <>
                <p data-testid="usage-summary">
                  {u.used_today} of {u.limit} requests used today.
                </p>
                <progress max={u.limit} value={Math.min(u.used_today, u.limit)} aria-label="Requests used today">
                  {Math.round((u.used_today / u.limit) * 100)}%
                </progress>
              </>
            )}
            <p className="muted">Resets {formatTime(u.resets_at)}.</p>
          </div>
        )}
      </AsyncView>
    </section>
  );
}
