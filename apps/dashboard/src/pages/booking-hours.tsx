import type { InputHTMLAttributes } from 'react';
import { WEEKDAYS, type Booking, type Weekday } from '../api';
import { WEEKDAY_NAMES } from '../components/format';

/** Periods per weekday, `{"mon": [["09:00","17:00"]]}`: an agent's booking hours and a team's business hours alike. */
type WeeklyHours = Booking['opening_hours'];

/** Every IANA zone the browser knows (the list the API accepts is the same database); UTC first. */
const TIME_ZONES: string[] = (() => {
  const intl = Intl as unknown as { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
})();

type FieldProps = Pick<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby' | 'onInput'>;
/** A refusal of the hours (useAction's `bind`): every time picker is marked and described by it; editing clears it. */
type HoursFieldProps = { 'aria-invalid'?: boolean; 'aria-describedby'?: string; onInput?: () => void };

/** The suggestions, made once: the page re-rendering as each key is typed leaves the ~400 options alone. */
const TIME_ZONE_LIST = (
  <datalist id="time-zones">
    {TIME_ZONES.map((zone) => (
      <option key={zone} value={zone} />
    ))}
  </datalist>
);

/** A time zone typed with suggestions from the full list (a datalist filters as one types: "berl" → Europe/Berlin). */
export function TimeZoneField({ value, onChange, field }: { value: string; onChange(zone: string): void; field?: FieldProps }) {
  return (
    <label>
      Time zone
      <input list="time-zones" value={value} onChange={(e) => onChange(e.target.value)} required autoComplete="off" spellCheck={false} {...field} />
      {TIME_ZONE_LIST}
    </label>
  );
}

/** A new range after the day's last one (or the usual 09:00–17:00). */
function nextRange(ranges: string[][]): string[] {
  const last = ranges[ranges.length - 1]?.[1];
  if (!last || last >= '22:00') return ['09:00', '17:00'];
  const [h, m] = last.split(':').map(Number);
  const from = `${String(h + 1).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return [from, h + 3 >= 24 ? '23:59' : `${String(h + 3).padStart(2, '0')}:${String(m).padStart(2, '0')}`];
}

/**
 * A period's end as a time picker shows it: the API's "24:00" (until midnight) is 00:00 there, and an end picked at
 * 00:00 (which could not end a period that starts the same day) means midnight, "24:00".
 */
const endShown = (end: string) => (end === '24:00' ? '00:00' : end);
const endPicked = (picked: string) => (picked === '00:00' ? '24:00' : picked);

/** Opening hours with time pickers: per day, open or closed, and its ranges (added and removed one by one). */
export function OpeningHoursEditor({ hours, onChange, field }: { hours: WeeklyHours; onChange(hours: WeeklyHours): void; field?: HoursFieldProps }) {
  const setDay = (day: Weekday, ranges: string[][]) => {
    const next = { ...hours };
    if (ranges.length === 0) delete next[day];
    else next[day] = ranges;
    onChange(next);
  };
  return (
    <div className="hours" onInput={field?.onInput}>
      {WEEKDAYS.map((day) => {
        const ranges = hours[day] ?? [];
        const name = WEEKDAY_NAMES[day];
        return (
          <fieldset key={day} className="day" data-testid={`hours-${day}`}>
            <legend>{name}</legend>
            <label className="checkbox">
              <input type="checkbox" checked={ranges.length > 0} onChange={(e) => setDay(day, e.target.checked ? [['09:00', '17:00']] : [])} />
              Open
            </label>
            {ranges.length === 0 && <p className="muted small">Closed</p>}
            {ranges.map(([from, to], i) => (
              <div key={i} className="range">
                <label>
                  <span className="visually-hidden">
                    {name} range {i + 1}
                  </span>{' '}
                  from
                  <input
                    type="time"
                    value={from}
                    onChange={(e) => setDay(day, ranges.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
                    required
                    aria-invalid={field?.['aria-invalid']}
                    aria-describedby={field?.['aria-describedby']}
                  />
                </label>
                <label>
                  <span className="visually-hidden">
                    {name} range {i + 1}
                  </span>{' '}
                  to
                  <input
                    type="time"
                    value={endShown(to)}
                    onChange={(e) => setDay(day, ranges.map((r, j) => (j === i ? [r[0], endPicked(e.target.value)] : r)))}
                    required
                    aria-invalid={field?.['aria-invalid']}
                    aria-describedby={field?.['aria-describedby']}
                  />
                </label>
                <button type="button" className="secondary button-small" onClick={() => setDay(day, ranges.filter((_, j) => j !== i))} aria-label={`Remove ${name} range ${i + 1}`}>
                  Remove
                </button>
              </div>
            ))}
            {ranges.length > 0 && (
              <button type="button" className="secondary button-small" onClick={() => setDay(day, [...ranges, nextRange(ranges)])} aria-label={`Add a range on ${name}`}>
                Add a range
              </button>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
