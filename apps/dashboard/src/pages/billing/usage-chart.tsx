import { useMemo, useState } from 'react';
import type { UsageDayRecord } from '../../api';
import { DataTable } from '../../components/data-table';

const DAYS = 30;
const UNITS: Record<string, [string, string]> = { voice_minute: ['minute', 'minutes'], llm_token: ['token', 'tokens'] };
const unitOf = (category: string, n: number) => {
  const [one, many] = UNITS[category] ?? ['message', 'messages'];
  return n === 1 ? one : many;
};
const LABELS: Record<string, string> = { llm_token: 'LLM tokens', voice_minute: 'voice minutes' };
const labelOf = (category: string) => LABELS[category] ?? category;

/** The last `DAYS` UTC days, oldest first (YYYY-MM-DD). */
function lastDays(today = new Date()): string[] {
  return Array.from({ length: DAYS }, (_, i) => new Date(today.getTime() - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/**
 * Usage per day of one category at a time (messages, minutes and tokens do not add up), as bars with the day's number
 * in each bar's title, and every category's total in a table beside it.
 */
export function UsageChart({ usage }: { usage: UsageDayRecord[] }) {
  const totals = useMemo(() => {
    const byCategory = new Map<string, number>();
    for (const u of usage) byCategory.set(u.category, (byCategory.get(u.category) ?? 0) + u.quantity);
    return [...byCategory.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [usage]);
  const [chosen, setChosen] = useState<string>();
  const category = chosen ?? totals[0]?.[0];
  if (!category) return <p className="muted">No usage in the last {DAYS} days.</p>;

  const days = lastDays();
  const perDay = new Map<string, number>();
  for (const u of usage) if (u.category === category) perDay.set(u.day, (perDay.get(u.day) ?? 0) + u.quantity);
  const max = Math.max(1, ...perDay.values());

  return (
    <div className="usage-chart">
      <label>
        Show{' '}
        <select value={category} onChange={(e) => setChosen(e.target.value)}>
          {totals.map(([c]) => (
            <option key={c} value={c}>
              {labelOf(c)}
            </option>
          ))}
        </select>
      </label>
      <svg viewBox={`0 0 ${DAYS * 10} 100`} role="img" aria-label={`${labelOf(category)} per day over the last ${DAYS} days`} className="bars" preserveAspectRatio="none">
        {days.map((day, i) => {
          const n = perDay.get(day) ?? 0;
          const height = (n / max) * 96;
          return (
            <rect key={day} x={i * 10 + 1} y={100 - height} width={8} height={height} className="bar">
              <title>{`${day}: ${n.toLocaleString()} ${unitOf(category, n)}`}</title>
            </rect>
          );
        })}
      </svg>
      <p className="small muted">
        {days[0]} – {days[DAYS - 1]} (UTC)
      </p>
      <div className="table-wrap">
        <DataTable
          captionVisible
          caption={`Usage in the last ${DAYS} days`}
          rows={totals}
          rowKey={([c]) => c}
          columns={[
            { header: 'Category', cell: ([c]) => labelOf(c) },
            { header: 'Total', cell: ([c, n]) => `${n.toLocaleString()} ${unitOf(c, n)}` },
          ]}
        />
      </div>
    </div>
  );
}
