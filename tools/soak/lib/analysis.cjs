'use strict';
// The soak's judgement, pure (no I/O, unit-tested): parsing the command's figures, least-squares trends, and the
// verdicts on memory, consumer lag, losses, failed requests and log lines over the samples a run collected.
//
// A sample is `{t, phase, rss: {service: MB|null}, lag: {group: messages}, counts: {...}}`; `t` is seconds since the
// load started, `phase` is `load` while load is offered and `drain` afterwards.

/** `90s`, `10m`, `1h`, `1500ms`, `25` (seconds) → milliseconds. */
function parseDuration(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(String(text));
  if (!match) throw new Error(`not a duration: "${text}" (e.g. 90s, 10m, 1h)`);
  const unit = (match[2] ?? 's').toLowerCase();
  const ms = Number(match[1]) * { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 }[unit];
  if (!(ms > 0)) throw new Error(`a duration must be positive: "${text}"`);
  return ms;
}

const RATE_KINDS = ['send', 'inbound', 'read'];

/**
 * `--rate`: one number (sends and inbound per second, reads half of it) or `send=20,inbound=20,read=10` (kinds left out
 * keep their defaults). Rates may be fractional; 0 switches a kind off.
 */
function parseRates(text, defaults = { send: 20, inbound: 20, read: 10 }) {
  if (text === undefined || text === null || text === '') return { ...defaults };
  const s = String(text).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return { send: Number(s), inbound: Number(s), read: Number(s) / 2 };
  const rates = { ...defaults };
  for (const part of s.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(part);
    const kind = m?.[1].toLowerCase().replace(/s$/, '');
    if (!m || !RATE_KINDS.includes(kind)) throw new Error(`not a rate: "${part}" (e.g. --rate 20 or --rate send=20,inbound=20,read=10)`);
    rates[kind] = Number(m[2]);
  }
  return rates;
}

/** Least-squares line through `[x, y]` points: `{slope, intercept}` (slope 0 with fewer than two distinct x). */
function linearFit(points) {
  const n = points.length;
  if (n === 0) return { slope: 0, intercept: 0 };
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round1 = (v) => (v === null || v === undefined || Number.isNaN(v) ? null : Math.round(v * 10) / 10);

/** The load-phase samples after the warm-up share (the first `warmupShare` of the load's duration). */
function steadySamples(samples, warmupShare) {
  const load = samples.filter((s) => s.phase === 'load');
  if (load.length === 0) return [];
  const end = load[load.length - 1].t;
  return load.filter((s) => s.t >= end * warmupShare);
}

// A steady window under 10 minutes is too short: V8 heaps still settle for minutes after a warm-up (seen: 5–9 MB per
// 10 min over 8 minutes that flattened to 1–4 over 20).
const MEMORY_DEFAULTS = { warmupShare: 0.2, slopeLimitMbPer10Min: 5, marginMb: 20, minWindowS: 600, edgeSamples: 3 };

/**
 * Memory of each service over the steady load: start/end (medians of the first/last `edgeSamples` steady samples, so
 * one GC swing does not decide), peak (any sample), slope in MB per 10 minutes. Flat = slope below the limit and
 * end ≤ start + margin. A steady window shorter than `minWindowS` cannot show a trend: `inconclusive`, not a failure.
 */
function memoryVerdicts(samples, services, options = {}) {
  const o = { ...MEMORY_DEFAULTS, ...options };
  const steady = steadySamples(samples, o.warmupShare);
  const window = steady.length ? steady[steady.length - 1].t - steady[0].t : 0;
  return services.map((service) => {
    const points = steady.filter((s) => typeof s.rss[service] === 'number').map((s) => [s.t, s.rss[service]]);
    const all = samples.map((s) => s.rss[service]).filter((v) => typeof v === 'number');
    const start = median(points.slice(0, o.edgeSamples).map(([, y]) => y));
    const end = median(points.slice(-o.edgeSamples).map(([, y]) => y));
    const slope = linearFit(points).slope * 600;
    const reasons = [];
    if (points.length < 2) reasons.push('fewer than two samples after the warm-up');
    else {
      if (slope > o.slopeLimitMbPer10Min) reasons.push(`grows ${round1(slope)} MB per 10 min (limit ${o.slopeLimitMbPer10Min})`);
      if (end > start + o.marginMb) reasons.push(`ends ${round1(end - start)} MB above its start (margin ${o.marginMb})`);
    }
    // A short window's slope is GC noise extrapolated: no verdict, only the reason why not.
    const conclusive = points.length >= 2 && window >= o.minWindowS;
    if (points.length >= 2 && !conclusive) reasons.splice(0, reasons.length, `the steady window (${Math.round(window)} s) is shorter than ${o.minWindowS} s`);
    const verdict = !conclusive ? 'inconclusive' : reasons.length ? 'fail' : 'pass';
    return {
      service,
      first: all.length ? round1(all[0]) : null,
      start: round1(start),
      peak: all.length ? round1(Math.max(...all)) : null,
      end: round1(end),
      slopeMbPer10Min: round1(slope),
      verdict,
      reasons,
    };
  });
}

const LAG_DEFAULTS = { warmupShare: 0.2, growthLimit: 200, tolerance: 0 };

/**
 * Consumer lag of each group: back to (about) zero at the end (last sample ≤ `tolerance`), and no upward trend while
 * load ran (the fitted growth over the steady window, slope × window, below `growthLimit` messages).
 */
function lagVerdicts(samples, groups, options = {}) {
  const o = { ...LAG_DEFAULTS, ...options };
  const steady = steadySamples(samples, o.warmupShare);
  const window = steady.length ? steady[steady.length - 1].t - steady[0].t : 0;
  return groups.map((group) => {
    const values = samples.map((s) => s.lag[group]).filter((v) => typeof v === 'number');
    const points = steady.filter((s) => typeof s.lag[group] === 'number').map((s) => [s.t, s.lag[group]]);
    const growth = linearFit(points).slope * window;
    const last = values.length ? values[values.length - 1] : null;
    const loadValues = samples.filter((s) => s.phase === 'load' && typeof s.lag[group] === 'number').map((s) => s.lag[group]);
    const reasons = [];
    if (last === null) reasons.push('never sampled');
    else if (last > o.tolerance) reasons.push(`still ${last} behind at the end (tolerance ${o.tolerance})`);
    if (growth > o.growthLimit) reasons.push(`grew by about ${Math.round(growth)} messages during the steady load (limit ${o.growthLimit})`);
    return {
      group,
      maxDuringLoad: loadValues.length ? Math.max(...loadValues) : null,
      meanDuringLoad: loadValues.length ? round1(loadValues.reduce((a, b) => a + b, 0) / loadValues.length) : null,
      last,
      growth: Math.round(growth),
      verdict: reasons.length ? 'fail' : 'pass',
      reasons,
    };
  });
}

/**
 * Nothing lost: every accepted send stored by the sandbox, every accepted inbound notification's `message.received`
 * at the receiver. Every request answered as it should (nothing is injected, so any failure is a finding), every
 * signature valid, no service exited.
 */
function deliveryVerdicts(c) {
  const checks = [
    ['every accepted send reached the sandbox', c.sendsAccepted - c.sendsAtSandbox, `${c.sendsAtSandbox} of ${c.sendsAccepted} accepted sends at the sandbox by the end of the drain`],
    ["every accepted inbound message's message.received reached the receiver", c.inboundAccepted - c.inboundReceived, `${c.inboundReceived} of ${c.inboundAccepted} at the receiver by the end of the drain`],
    ['no accepted send reached the sandbox twice', c.sendsDuplicatedAtSandbox, `${c.sendsDuplicatedAtSandbox} sends stored more than once`],
    ['no inbound message announced twice', c.duplicateEvents, `${c.duplicateEvents} inbound messages with more than one message.received (webhook-id)`],
    ['every customer who wrote got a reply', c.customersWrote - c.customersAnswered, `${c.customersAnswered} of ${c.customersWrote} customers answered at the sandbox`],
    ['no customer got more replies than messages written', c.customersOverAnswered, `${c.customersOverAnswered} customers answered more often than they wrote`],
    ['every request answered 2xx', c.sendsFailed + c.inboundFailed + c.readsFailed + c.agentChangesFailed, `failed: ${c.sendsFailed} sends, ${c.inboundFailed} inbound, ${c.readsFailed} reads, ${c.agentChangesFailed} agent changes`],
    ['every webhook signature valid', c.badSignatures, `${c.badSignatures} bad signatures`],
    ['no service exited', c.serviceExits, `${c.serviceExits} exits`],
  ];
  return checks.map(([name, bad, detail]) => ({ name, verdict: bad > 0 ? 'fail' : 'pass', detail }));
}

/** The whole judgement: `{passed, memory, lag, delivery, logs}`; inconclusive memory does not fail a run. */
function judge({ samples, services, groups, counts, logScan, memory = {}, lag = {} }) {
  const mem = memoryVerdicts(samples, services, memory);
  const lags = lagVerdicts(samples, groups, lag);
  const delivery = deliveryVerdicts(counts);
  const logs = { verdict: logScan.errors.length > 0 ? 'fail' : 'pass', errors: logScan.errors.length, warnings: logScan.warnings.length, startup: logScan.startup?.length ?? 0 };
  const passed = mem.every((m) => m.verdict !== 'fail') && lags.every((l) => l.verdict === 'pass') && delivery.every((d) => d.verdict === 'pass') && logs.verdict === 'pass';
  return { passed, memory: mem, lag: lags, delivery, logs };
}

module.exports = { parseDuration, parseRates, linearFit, median, steadySamples, memoryVerdicts, lagVerdicts, deliveryVerdicts, judge, MEMORY_DEFAULTS, LAG_DEFAULTS };
