'use strict';
// Hand-rolled SVG line charts for the soak report (no chart package): time on x, one line per series, axes with
// ticks and labels, a legend, and optional vertical markers (end of the warm-up, end of the load). Pure.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
}

/** About `count` round tick values covering [min, max] (steps of 1, 2 or 5 × 10^n). */
function niceTicks(min, max, count = 6) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max <= min) max = min + 1;
  const raw = (max - min) / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.floor(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toFixed(10)));
  return ticks;
}

function formatTick(v) {
  if (Math.abs(v) >= 10_000) return `${Math.round(v / 1000)}k`;
  return Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) < 1 ? 2 : 1);
}

/** Seconds as `m:ss` (or `h:mm:ss`) for the time axis. */
function formatTime(seconds) {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * An SVG document: `series` is `[{name, points: [[x, y], ...]}]` (null y values break the line), `markers`
 * `[{x, label}]` vertical dashed lines. `xIsTime` formats x ticks as m:ss.
 */
function lineChart({ title, xLabel, yLabel, series, markers = [], width = 960, height = 460, xIsTime = true, yMin }) {
  const legendWidth = 210;
  const margin = { top: 44, right: legendWidth + 16, bottom: 56, left: 72 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const points = series.flatMap((s) => s.points.filter(([, y]) => typeof y === 'number' && Number.isFinite(y)));
  const xs = [...points.map(([x]) => x), ...markers.map((m) => m.x)];
  const ys = points.map(([, y]) => y);
  const xTicks = niceTicks(xs.length ? Math.min(...xs) : 0, xs.length ? Math.max(...xs) : 1, 8);
  const yTicks = niceTicks(yMin ?? (ys.length ? Math.min(0, ...ys) : 0), ys.length ? Math.max(...ys) : 1, 6);
  const [x0, x1] = [xTicks[0], xTicks[xTicks.length - 1]];
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const sx = (x) => margin.left + ((x - x0) / (x1 - x0 || 1)) * plotW;
  const sy = (y) => margin.top + plotH - ((y - y0) / (y1 - y0 || 1)) * plotH;
  const f = (n) => n.toFixed(1);

  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(title)}</text>`);
  for (const t of yTicks) {
    out.push(`<line x1="${margin.left}" y1="${f(sy(t))}" x2="${margin.left + plotW}" y2="${f(sy(t))}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${margin.left - 8}" y="${f(sy(t) + 4)}" text-anchor="end">${escapeXml(formatTick(t))}</text>`);
  }
  for (const t of xTicks) {
    out.push(`<line x1="${f(sx(t))}" y1="${margin.top}" x2="${f(sx(t))}" y2="${margin.top + plotH}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${f(sx(t))}" y="${margin.top + plotH + 18}" text-anchor="middle">${escapeXml(xIsTime ? formatTime(t) : formatTick(t))}</text>`);
  }
  out.push(`<line x1="${margin.left}" y1="${margin.top + plotH}" x2="${margin.left + plotW}" y2="${margin.top + plotH}" stroke="#333"/>`);
  out.push(`<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${margin.top + plotH}" stroke="#333"/>`);
  out.push(`<text x="${margin.left + plotW / 2}" y="${height - 14}" text-anchor="middle">${escapeXml(xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`);
  for (const m of markers) {
    out.push(`<line x1="${f(sx(m.x))}" y1="${margin.top}" x2="${f(sx(m.x))}" y2="${margin.top + plotH}" stroke="#999" stroke-dasharray="5 4"/>`);
    out.push(`<text x="${f(sx(m.x) + 4)}" y="${margin.top + 12}" fill="#666">${escapeXml(m.label)}</text>`);
  }
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    // A gap in the data (null) starts a new segment instead of drawing through it.
    const segments = [];
    let current = [];
    for (const [x, y] of s.points) {
      if (typeof y === 'number' && Number.isFinite(y)) current.push(`${f(sx(x))},${f(sy(y))}`);
      else if (current.length) segments.push(current), (current = []);
    }
    if (current.length) segments.push(current);
    for (const seg of segments) {
      if (seg.length === 1) out.push(`<circle cx="${seg[0].split(',')[0]}" cy="${seg[0].split(',')[1]}" r="2" fill="${color}"/>`);
      else out.push(`<polyline fill="none" stroke="${color}" stroke-width="1.8" points="${seg.join(' ')}"><title>${escapeXml(s.name)}</title></polyline>`);
    }
    const ly = margin.top + 8 + i * 20;
    const lx = width - legendWidth;
    out.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 22}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    // Long names (a reply group's UUID) would run off the picture; the full name is the line's tooltip.
    const label = s.name.length > 26 ? `${s.name.slice(0, 25)}…` : s.name;
    out.push(`<text x="${lx + 28}" y="${ly + 4}">${escapeXml(label)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

module.exports = { lineChart, niceTicks, formatTime, escapeXml, PALETTE };
