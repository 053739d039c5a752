import type { SendsInMinute } from '../../api';

/** At most this many minutes are drawn, the latest ones (a campaign paused overnight would be thin slivers otherwise). */
const MAX_MINUTES = 120;
/** A short campaign still draws thin bars: the chart is at least this many minutes wide. */
const MIN_SLOTS = 30;
const MINUTE_MS = 60_000;
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * Messages handed over per minute as SVG bars, one per minute from the first to the last (a minute without sends is a
 * gap), each with its number in its title; campaign-service aggregates, so 100,000 recipients are a few rows here.
 */
export function SendsPerMinuteChart({ minutes }: { minutes: SendsInMinute[] }) {
  if (minutes.length === 0) return <p className="muted">Nothing sent yet.</p>;
  const byMinute = new Map(minutes.map((m) => [Date.parse(m.minute), m.count]));
  const last = Date.parse(minutes[minutes.length - 1].minute);
  const first = Math.max(Date.parse(minutes[0].minute), last - (MAX_MINUTES - 1) * MINUTE_MS);
  const span = Math.round((last - first) / MINUTE_MS) + 1;
  const max = Math.max(1, ...byMinute.values());
  const total = minutes.reduce((sum, m) => sum + m.count, 0);
  return (
    <div className="usage-chart">
      <svg viewBox={`0 0 ${Math.max(span, MIN_SLOTS) * 10} 100`} role="img" aria-label={`Messages sent per minute: ${total.toLocaleString()} in all, at most ${max.toLocaleString()} in a minute`} className="bars" preserveAspectRatio="none" data-testid="sends-chart">
        {Array.from({ length: span }, (_, i) => {
          const at = first + i * MINUTE_MS;
          const n = byMinute.get(at) ?? 0;
          const height = (n / max) * 96;
          return (
            <rect key={at} x={i * 10 + 1} y={100 - height} width={8} height={height} className="bar" data-count={n}>
              <title>{`${hhmm(at)} UTC: ${n.toLocaleString()} ${n === 1 ? 'message' : 'messages'}`}</title>
            </rect>
          );
        })}
      </svg>
      <p className="small muted">
        {hhmm(first)} – {hhmm(last)} (UTC){span < Math.round((last - Date.parse(minutes[0].minute)) / MINUTE_MS) + 1 && `, the last ${MAX_MINUTES} minutes`}
      </p>
    </div>
  );
}
