import { useId, useState } from 'react';
import { AsyncView } from '../components/feedback';
import { useLiveQuery } from '../components/live-query';
import { useApi } from '../session/session';

/** "View payload": opens the exact JSON body a delivery sends, pretty-printed, with the headers every attempt carries. */
export function DeliveryPayload({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  return (
    <>
      <button type="button" className="secondary button-small" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen((o) => !o)}>
        View payload
      </button>
      <div id={regionId} hidden={!open}>
        {open && <PayloadView endpointId={endpointId} deliveryId={deliveryId} />}
      </div>
    </>
  );
}

/** Loaded only once opened: the list does not carry bodies. */
function PayloadView({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const api = useApi();
  const detail = useLiveQuery(['webhooks', endpointId, 'deliveries', deliveryId], () => api.delivery(endpointId, deliveryId));
  return (
    <AsyncView state={detail} what="payload">
      {(d) => (
        <section aria-label="Payload">
          <p className="muted small">
            {Object.entries(d.request_headers).map(([name, value]) => (
              <code key={name} className="block">
                {name}: {value}
              </code>
            ))}
            <span className="block">Each attempt adds its own webhook-timestamp and webhook-signature.</span>
          </p>
          <pre className="payload" data-testid="delivery-payload">
            {JSON.stringify(d.payload, null, 2)}
          </pre>
        </section>
      )}
    </AsyncView>
  );
}
