'use strict';
// What a soak prints and keeps: text tables for the terminal, report.md, and the two charts. Pure: the caller writes.
const { lineChart, formatTime } = require('./svg.cjs');
const { groupEntries } = require('./logscan.cjs');

/** A plain-text table (first column left-aligned, the rest right-aligned). */
function textTable(headers, rows) {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '–' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function markdownTable(headers, rows) {
  const cell = (c) => (c === null || c === undefined ? '–' : String(c).replace(/\|/g, '\\|').replace(/\n/g, ' '));
  return [`| ${headers.join(' | ')} |`, `| ${headers.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

const MEMORY_HEADERS = ['service', 'first MB', 'start MB', 'peak MB', 'end MB', 'slope MB/10min', 'verdict'];
function memoryRows(memory) {
  return memory.map((m) => [m.service, m.first, m.start, m.peak, m.end, m.slopeMbPer10Min, m.verdict]);
}

/** Up to `columns` samples spread evenly over the run, the last load sample and the very last always among them. */
function pickSamples(samples, columns) {
  if (samples.length <= columns) return samples;
  const lastLoad = samples.map((s) => s.phase).lastIndexOf('load');
  const picked = new Set([0, samples.length - 1, lastLoad].filter((i) => i >= 0));
  for (let k = 1; picked.size < columns && k < columns; k++) picked.add(Math.round((k * (samples.length - 1)) / (columns - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => samples[i]);
}

/** Lag per group at picked moments: `{headers, rows}`; a `*` marks samples taken after the load stopped. */
function lagOverTime(samples, lagVerdicts, columns = 10) {
  const picked = pickSamples(samples, columns);
  const headers = ['consumer group', ...picked.map((s) => `${formatTime(s.t)}${s.phase === 'drain' ? '*' : ''}`), 'max', 'growth', 'verdict'];
  const rows = lagVerdicts.map((l) => [l.group, ...picked.map((s) => s.lag[l.group] ?? null), l.maxDuringLoad, l.growth, l.verdict]);
  return { headers, rows };
}

function countRows(c) {
  return [
    ['sends (POST /v1/send)', c.sendsOffered, c.sendsAccepted, c.sendsFailed, `${c.sendsAtSandbox} stored by the sandbox (${c.sendsDuplicatedAtSandbox} of them more than once)`],
    ['inbound notifications (POST /webhooks/whatsapp)', c.inboundOffered, c.inboundAccepted, c.inboundFailed, `${c.inboundReceived} message.received at the receiver (${c.duplicateEvents} duplicate webhook-ids; ${c.repliesAtSandbox} agent replies at the sandbox, ${c.customersAnswered} of ${c.customersWrote} customers answered)`],
    ['API reads', c.readsOffered, c.readsOk, c.readsFailed, c.readsNotYetStored ? `${c.readsNotYetStored} reads of a message accepted ≥ 5 s earlier answered 404 (not stored yet)` : ''],
    ['agent config changes (PUT /api/v1/agents/…)', c.agentChangesOffered, c.agentChangesOk, c.agentChangesFailed, ''],
  ];
}
const COUNT_HEADERS = ['traffic', 'offered', 'accepted', 'failed', 'delivered'];

function verdictLines(j, counts) {
  const lines = [];
  const mem = j.memory.filter((m) => m.verdict === 'fail');
  const inconclusive = j.memory.filter((m) => m.verdict === 'inconclusive');
  const window = inconclusive.flatMap((m) => m.reasons).find((r) => r.startsWith('the steady window'));
  lines.push(`${mem.length ? 'FAIL' : inconclusive.length ? 'n/a ' : 'PASS'}  memory flat${mem.length ? `: ${mem.map((m) => `${m.service} ${m.reasons.join(', ')}`).join('; ')}` : inconclusive.length ? ` (inconclusive: ${window ?? inconclusive[0].reasons.join(', ')})` : ''}`);
  const lag = j.lag.filter((l) => l.verdict === 'fail');
  lines.push(`${lag.length ? 'FAIL' : 'PASS'}  consumer lag not growing and back to 0${lag.length ? `: ${lag.map((l) => `${l.group} ${l.reasons.join(', ')}`).join('; ')}` : ''}`);
  for (const d of j.delivery) lines.push(`${d.verdict === 'pass' ? 'PASS' : 'FAIL'}  ${d.name} (${d.detail})`);
  if (counts?.readsNotYetStored) lines.push(`NOTE  ${counts.readsNotYetStored} reads of a message accepted at least 5 s earlier answered 404: the messaging-service had not stored it yet (CONTRACT §4 says 1 s; see the lag)`);
  lines.push(`${j.logs.verdict === 'pass' ? 'PASS' : 'FAIL'}  no error lines in the services' logs once the load started (${j.logs.errors} errors, ${j.logs.warnings} warnings; ${j.logs.startup} lines while the stack started, reported, not judged)`);
  return lines;
}

function logRows(entries) {
  return groupEntries(entries)
    .slice(0, 20)
    .map((g) => [g.app, g.count, g.msg]);
}

/** The terminal summary. */
function renderText(result) {
  const { judgement: j, counts, samples, logScan } = result;
  const out = [];
  out.push(`Soak: ${formatTime(result.loadSeconds)} of load (${result.rates.send} sends/s, ${result.rates.inbound} inbound/s, ${result.rates.read} reads/s), ${samples.length} samples every ${result.sampleSeconds} s, ${result.tenants} tenants`);
  out.push('', 'Memory (RSS, MB; start/end after the warm-up):', textTable(MEMORY_HEADERS, memoryRows(j.memory)));
  const lag = lagOverTime(samples, j.lag);
  out.push('', 'Consumer lag (messages; * = after the load stopped):', textTable(lag.headers, lag.rows));
  out.push('', 'Traffic:', textTable(COUNT_HEADERS, countRows(counts)));
  if (logScan.errors.length) out.push('', 'Error lines in the logs:', textTable(['service', 'count', 'message'], logRows(logScan.errors)));
  if (logScan.warnings.length) out.push('', 'Warnings in the logs:', textTable(['service', 'count', 'message'], logRows(logScan.warnings)));
  if (logScan.startup.length) out.push('', 'Errors and warnings while the stack started (not judged):', textTable(['service', 'count', 'message'], logRows(logScan.startup)));
  out.push('', ...verdictLines(j, counts), '', j.passed ? 'PASSED' : 'FAILED');
  return out.join('\n');
}

/** report.md. */
function renderMarkdown(result) {
  const { judgement: j, counts, samples, logScan } = result;
  const lag = lagOverTime(samples, j.lag, 12);
  const out = [
    `# Soak report (${result.startedAt})`,
    '',
    `- Load: ${formatTime(result.loadSeconds)} at ${result.rates.send} sends/s, ${result.rates.inbound} inbound notifications/s, ${result.rates.read} API reads/s, an agent change every ${result.agentChangeSeconds} s; ${result.tenants} tenants`,
    `- Drain after the load: ${formatTime(result.drainSeconds)}; ${samples.length} samples every ${result.sampleSeconds} s; warm-up excluded from the trends: first ${Math.round(result.warmupShare * 100)} % of the load`,
    `- Machine: ${result.machine}`,
    `- Result: **${j.passed ? 'PASSED' : 'FAILED'}**`,
    '',
    '## Verdicts',
    '',
    ...verdictLines(j, counts).map((l) => `- ${l}`),
    '',
    '## Memory (RSS, MB)',
    '',
    '![memory](memory.svg)',
    '',
    markdownTable(MEMORY_HEADERS, memoryRows(j.memory)),
    '',
    '## Consumer lag (messages; * = after the load stopped)',
    '',
    '![lag](lag.svg)',
    '',
    markdownTable(lag.headers, lag.rows),
    '',
    '## Traffic',
    '',
    markdownTable(COUNT_HEADERS, countRows(counts)),
    '',
    '## Logs',
    '',
    logScan.errors.length ? markdownTable(['service', 'count', 'error'], logRows(logScan.errors)) : 'No error lines.',
    '',
    logScan.warnings.length ? markdownTable(['service', 'count', 'warning'], logRows(logScan.warnings)) : 'No warnings.',
    '',
    ...(logScan.startup.length ? ['While the stack started (before the load; not judged):', '', markdownTable(['service', 'count', 'line'], logRows(logScan.startup)), ''] : []),
  ];
  return out.join('\n');
}

function markers(result) {
  const loadEnd = [...result.samples].reverse().find((s) => s.phase === 'load')?.t ?? result.loadSeconds;
  return [
    { x: result.loadSeconds * result.warmupShare, label: 'warm-up ends' },
    { x: loadEnd, label: 'load stops' },
  ];
}

/** memory.svg and lag.svg. */
function renderCharts(result) {
  const { samples } = result;
  const memory = lineChart({
    title: 'Memory of every service (RSS)',
    xLabel: 'time since the load started (m:ss)',
    yLabel: 'RSS (MB)',
    series: result.services.map((service) => ({ name: service, points: samples.map((s) => [s.t, s.rss[service] ?? null]) })),
    markers: markers(result),
  });
  const lag = lineChart({
    title: 'Consumer lag per group',
    xLabel: 'time since the load started (m:ss)',
    yLabel: 'lag (messages)',
    series: result.groups.map((group) => ({ name: group, points: samples.map((s) => [s.t, s.lag[group] ?? null]) })),
    markers: markers(result),
    yMin: 0,
  });
  return { memory, lag };
}

module.exports = { textTable, markdownTable, pickSamples, lagOverTime, renderText, renderMarkdown, renderCharts, verdictLines };
