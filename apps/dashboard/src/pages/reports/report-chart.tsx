import type { ConversationReportRow, ReportGrouping } from '../../api';
import { GROUPINGS, dayInWords, daysBetween, shortDay, spansYears, type Days } from './report-words';

/** A row of the chart: what it is called, and its two figures. */
interface Bar {
  key: string;
  label: string;
  /** Under the chart's axis ("Mar 9"). */
  short?: string;
  opened: number;
  handedOff: number;
}

const Legend = ({ max }: { max?: number }) => (
  <p className="report-legend small" aria-hidden="true">
    <span className="report-swatch report-opened" /> Opened <span className="report-swatch report-handed-off" /> Handed to a person
    {max !== undefined && <span className="muted"> · the top of the chart is {max}</span>}
  </p>
);

/**
 * Conversations opened against those handed to a person, read at a glance: by day, a bar pair for every day of the
 * period (days without conversations too); by member, team or channel, a horizontal bar pair per row. The table below
 * carries the same figures for a screen reader; the chart is one image with a one-line summary.
 */
export function ReportChart({ rows, grouping, days, nameOf }: { rows: readonly ConversationReportRow[]; grouping: ReportGrouping; days: Days; nameOf: (key: string | null) => string }) {
  if (grouping === 'day') {
    const byDay = new Map(rows.map((r) => [r.key, r]));
    const withYear = spansYears(days);
    const bars = daysBetween(days).map((day) => ({ key: day, label: dayInWords(day, withYear), short: shortDay(day, withYear), opened: byDay.get(day)?.opened ?? 0, handedOff: byDay.get(day)?.handed_off ?? 0 }));
    return <DayBars bars={bars} each={`for ${GROUPINGS.day.each}`} />;
  }
  const bars = rows.map((r) => ({ key: r.key ?? '', label: nameOf(r.key), opened: r.opened, handedOff: r.handed_off }));
  return <RowBars bars={bars} each={`for ${GROUPINGS[grouping].each}`} />;
}

function summary(bars: readonly Bar[], each: string): string {
  const busiest = bars.reduce<Bar | undefined>((best, b) => (!best || b.opened > best.opened ? b : best), undefined);
  if (!busiest || busiest.opened === 0) return 'No conversations opened in this period.';
  return `Conversations opened and handed to a person ${each}; the most: ${busiest.label}, ${busiest.opened} opened, ${busiest.handedOff} handed to a person.`;
}

function DayBars({ bars, each }: { bars: readonly Bar[]; each: string }) {
  if (bars.length === 0) return null;
  const max = Math.max(1, ...bars.map((b) => b.opened), ...bars.map((b) => b.handedOff));
  const step = 10;
  // the first, the middle and the last day under the chart (each bar says its own in its tooltip)
  const labelled = [...new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1])];
  return (
    <figure className="report-chart" data-testid="report-chart">
      <Legend max={max} />
      <svg viewBox={`0 0 ${bars.length * step} 100`} preserveAspectRatio="none" role="img" aria-label={summary(bars, each)} className="report-svg">
        {bars.map((b, i) => {
          const opened = (b.opened / max) * 100;
          const handed = (b.handedOff / max) * 100;
          return (
            <g key={b.key}>
              <title>{`${b.label}: ${b.opened} opened, ${b.handedOff} handed to a person`}</title>
              <rect x={i * step + 1} y={100 - opened} width={4} height={opened} className="report-opened" />
              <rect x={i * step + 5} y={100 - handed} width={4} height={handed} className="report-handed-off" />
            </g>
          );
        })}
      </svg>
      <div className="report-axis small muted" aria-hidden="true">
        {labelled.map((i) => (
          <span key={bars[i].key}>{bars[i].short}</span>
        ))}
      </div>
    </figure>
  );
}

function RowBars({ bars, each }: { bars: readonly Bar[]; each: string }) {
  const max = Math.max(1, ...bars.map((b) => b.opened));
  const width = (n: number) => `${(n / max) * 100}%`;
  return (
    <figure className="report-chart" data-testid="report-chart" role="img" aria-label={summary(bars, each)}>
      <Legend />
      <ul className="report-rows" aria-hidden="true">
        {bars.map((b) => (
          <li key={b.key}>
            <span className="report-row-name">{b.label}</span>
            <span className="report-track">
              <span className="report-bar report-opened" style={{ width: width(b.opened) }} />
              <span className="small">{b.opened}</span>
            </span>
            <span className="report-track">
              <span className="report-bar report-handed-off" style={{ width: width(b.handedOff) }} />
              <span className="small">{b.handedOff}</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
