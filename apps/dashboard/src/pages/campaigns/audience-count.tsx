import { useEffect, useRef, useState } from 'react';
import type { AudienceCount, CampaignAudience } from '../../api';
import { errorText } from '../../components/problem-text';
import { useApi } from '../../session/session';

/** Counted once typing pauses: a keystroke is not a request (each counts against the tenant's daily quota). */
const DEBOUNCE_MS = 400;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * How many contacts the audience reaches now, counted by crm-service as it changes (debounced; a late answer for an
 * older audience is dropped). Announced politely to screen readers.
 */
export function AudienceCountLine({ audience, onCounted }: { audience: CampaignAudience; onCounted?: (count: AudienceCount | undefined) => void }) {
  const api = useApi();
  const key = JSON.stringify(audience);
  const empty = !audience.tags?.length && !audience.contact_ids?.length && !Object.keys(audience.attributes ?? {}).length;
  const [shown, setShown] = useState<{ key: string; count?: AudienceCount; error?: string }>();
  const generation = useRef(0);

  useEffect(() => {
    const mine = ++generation.current;
    if (empty) return undefined;
    const timer = window.setTimeout(() => {
      api.audienceCount(JSON.parse(key) as CampaignAudience).then(
        (count) => mine === generation.current && setShown({ key, count }),
        (err: unknown) => mine === generation.current && setShown({ key, error: errorText(err) }),
      );
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [api, key, empty]);

  // the count of the audience as it is now (undefined while it is being counted), for the cost estimate beside it
  const current = !empty && shown?.key === key ? shown.count : undefined;
  useEffect(() => onCounted?.(current), [onCounted, current]);

  let text = 'Name a tag to see how many contacts the campaign reaches.';
  if (!empty) {
    if (shown?.key !== key) text = 'Counting the audience…';
    else if (shown.error) text = `The audience could not be counted: ${shown.error}`;
    else if (shown.count) {
      const { count, opted_out } = shown.count;
      text = `Reaches ${plural(count, 'contact', 'contacts')} now` + (opted_out ? `; ${plural(opted_out, 'opted-out contact is', 'opted-out contacts are')} skipped.` : '.');
    }
  }
  return (
    <p className="small" role="status" aria-live="polite" data-testid="audience-count" data-count={shown?.key === key ? shown.count?.count : undefined}>
      {text}
    </p>
  );
}
