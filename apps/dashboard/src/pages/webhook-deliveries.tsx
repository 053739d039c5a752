import { useEffect, useState } from 'react';
import type { WebhookDelivery } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { countOf, formatTime } from '../components/format';
import { DELIVERIES_LIVE } from '../components/live-refresh';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { DeliveryPayload } from './delivery-payload';

/** After a test event, when the deliveries list looks again (ms): the webhook service delivers it a moment later. */
const AFTER_TEST_MS = [500, 1500, 4000, 10_000];

/**
 * An endpoint's deliveries with every attempt, refreshed while shown; a delivery can be sent again. `refreshAfter`
 * changes when a test event was sent (no stream event announces it), and the list then looks again a few times.
 */
export function WebhookDeliveries({ endpointId, refreshAfter = 0 }: { endpointId: string; refreshAfter?: number }) {
  const api = useApi();
  const [status, setStatus] = useState<'' | WebhookDelivery['status']>('');
  const deliveries = useLiveQuery(['webhooks', endpointId, 'deliveries', { status }], () => api.deliveries(endpointId, status || undefined), DELIVERIES_LIVE, { keepPrevious: true });
  const action = useAction();
  const { reload } = deliveries;
  useEffect(() => {
    if (refreshAfter === 0) return undefined;
    const timers = AFTER_TEST_MS.map((ms) => window.setTimeout(reload, ms));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [refreshAfter, reload]);
  const retry = async (d: WebhookDelivery) => {
    await action.run(() => api.retryDelivery(endpointId, d.id));
    deliveries.reload();
  };
  return (
    <section aria-label="Deliveries">
      <div className="row">
        <h3>Deliveries</h3>
        <label>
          <span className="visually-hidden">Show deliveries</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">all</option>
            <option value="pending">pending</option>
            <option value="succeeded">succeeded</option>
            <option value="dead">dead</option>
          </select>
        </label>
      </div>
      <ErrorNotice error={action.error} />
      <AsyncView state={deliveries} what="deliveries" isEmpty={(p) => p.data.length === 0} empty="Nothing delivered yet.">
        {(page) => (
          <ul className="list deliveries">
            {page.data.map((d) => (
              <li key={d.id} data-testid="delivery" data-event-type={d.event_type} data-status={d.status}>
                <details>
                  <summary>
                    <strong>{d.event_type}</strong> <span className={`status status-${d.status}`}>{d.status}</span>{' '}
                    <span className="muted">
                      {countOf(d.attempt_count, 'attempt')} · {formatTime(d.created_at)}
                    </span>
                  </summary>
                  <p className="muted">
                    webhook-id <code>{d.event_id}</code>
                    {d.next_attempt_at && ` · next attempt ${formatTime(d.next_attempt_at)}`}
                  </p>
                  <ol className="attempts">
                    {d.attempts.map((a) => (
                      <li key={a.attempt}>
                        {formatTime(a.attempted_at)}: {a.status_code ?? 'no response'} in {a.duration_ms} ms
                        {a.error && <span className="error-text"> · {a.error}</span>}
                        {a.response_excerpt && <code className="block">{a.response_excerpt}</code>}
                      </li>
                    ))}
                  </ol>
                  <div className="row wrap">
                    <DeliveryPayload endpointId={endpointId} deliveryId={d.id} />
                    <button type="button" className="secondary button-small" onClick={() => void retry(d)} disabled={action.pending}>
                      Retry now
                    </button>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}
