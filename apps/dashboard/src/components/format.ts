/** A timestamp in the reader's own locale and time zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * A timestamp in a given IANA time zone (an agent's booking zone, not the reader's), with the zone's short name:
 * "Mon, Jun 2, 2025, 9:00 AM GMT-4".
 */
export function formatTimeIn(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return date.toLocaleString(undefined, { timeZone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  } catch {
    return `${date.toLocaleString()} (your time; ${timeZone} is not a known time zone)`;
  }
}

/** "1 number", "3 numbers"; `plural` when it is not `singular` + "s". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
