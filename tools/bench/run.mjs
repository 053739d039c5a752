#!/usr/bin/env node
// `npm run bench`: the benchmark suite of issue 8 (see tools/bench/README.md and /work/shared/BENCHMARKS.md).
// Builds, starts the whole stack on free ports with a database and a Kafka namespace of its own, runs the scenarios,
// prints one row each and writes docs/benchmarks.md. Not a test: it prints numbers, it asserts nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { delay, round } from './lib/measure.mjs';
import { APPS, Platform, ROOT, build } from './lib/platform.mjs';
import { campaignRepliesScenario } from './scenarios/campaign-replies.mjs';
import { costScenario, inboundCostScenario } from './scenarios/cost.mjs';
import { fanoutScenario } from './scenarios/fanout.mjs';
import { inboundScenario } from './scenarios/inbound.mjs';
import { outboundScenario } from './scenarios/outbound.mjs';
import { sendScenario } from './scenarios/send.mjs';
import { exitTool, infrastructureForTool } from '../dev/lib/runner.mjs';

const SCENARIOS = ['send', 'inbound', 'fanout', 'outbound', 'cost', 'costinbound', 'replies'];
/** Default seconds and offered rate of each scenario (BENCHMARKS.md targets). */
const DEFAULTS = {
  send: { seconds: 30, rate: 1000 },
  inbound: { seconds: 60, rate: 200 },
  fanout: { seconds: 20, rate: 2000 },
  outbound: { seconds: 20, rate: 2000 },
  cost: { seconds: 20, rate: 100 },
  // one inbound message with its reply; a rate this 2-core machine holds (issue 33, point 1)
  costinbound: { seconds: 20, rate: 20 },
  // the campaign's sending time, and the number's send limit (the campaigns e2e test's 80/s)
  replies: { seconds: 30, rate: 80 },
};
/**
 * Scenarios whose stack runs without the sandbox's status callbacks, and why (BENCHMARKS.md: on, as in production,
 * unless the scenario says otherwise; the row says so).
 */
const CALLBACKS_OFF = { inbound: 'status callbacks off (BENCHMARKS.md scenario 2)' };
/** Seconds of the idle baseline the cost scenario measures before its traffic (BENCHMARKS.md: 60). */
const IDLE_SECONDS = 60;
const INBOUND_SEARCH_RATES = [400, 700, 1000];
const INBOUND_STEP_SECONDS = 15;
/** Services settle (JIT, first GC) this long after start-up before their idle RSS is read. */
const IDLE_SETTLE_MS = 3000;
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

const usage = `usage: npm run bench -- [--scenario send,inbound,fanout,outbound,cost,cost-inbound,replies] [--duration seconds] [--rate per-second]
                        [--numbers sandbox numbers (100)] [--idle seconds (60)] [--profile gateway,messaging-service] [--pg-sample] [--no-write]
       npm run bench -- cost             (scenarios may also be named without --scenario)
       npm run bench -- cost-inbound     (the cost of one inbound message with its reply, measured like cost)
       npm run bench -- embedding        (the agent's embedding model alone, no stack: tools/bench/embedding.mjs)
       npm run bench -- understanding    (the engine with and without the model, per message, and a 100-page PDF embedded)
       npm run bench -- inbox-search     (inbox search in PostgreSQL: LIKE, trigram, full-text as written or stemmed; found and time)
       npm run bench -- agent-loop       (issue 36: a question placed in an agent's 10,000 logged gaps, and a 200-case test set run per version)
       npm run bench -- reports          (issue 35: the conversation reports over a month of 100,000 conversations, p50/p95 per route)
  --duration  seconds each scenario measures (defaults: send 30, inbound 60, fan-out 20, outbound 20, cost 20,
              cost-inbound 20, replies 30: the campaign's sending time)
  --rate      offered rate of every scenario run (defaults: send 1000/s, inbound 200/s, fan-out 2000 deliveries/s,
              outbound 2000/s, cost 100/s, cost-inbound 20/s; replies: the number's send limit, 80/s)
  --idle      seconds of the cost scenarios' idle baseline (no traffic) before they send
  --profile   run these services under --cpu-prof; profiles go to tmp/bench-profiles/
  --pg-sample cost: sample PostgreSQL's active statements and their waits every 5 ms while it sends (pg_stat_activity)
  --no-write  print the table only; leave docs/benchmarks.md alone`;

const log = (message) => process.stderr.write(`${message}\n`);

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      scenario: { type: 'string' },
      idle: { type: 'string', default: String(IDLE_SECONDS) },
      duration: { type: 'string' },
      rate: { type: 'string' },
      numbers: { type: 'string', default: '100' },
      'no-write': { type: 'boolean', default: false },
      profile: { type: 'string', default: '' },
      'pg-sample': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const scenarios = (values.scenario ?? (positionals.length ? positionals.join(',') : SCENARIOS.join(','))).split(',').map((s) => s.trim().replace(/-/g, ''));
  const unknown = scenarios.filter((s) => !SCENARIOS.includes(s));
  const badProfile = values.profile.split(',').map((s) => s.trim()).filter((s) => s && !APPS.includes(s));
  if (badProfile.length) throw new Error(`--profile: unknown service ${badProfile.join(', ')}; one of ${APPS.join(', ')}`);
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; one of ${SCENARIOS.join(', ')}\n${usage}`);
  const number = (name, v) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(n > 0)) throw new Error(`--${name} must be a positive number\n${usage}`);
    return n;
  };
  return {
    scenarios: SCENARIOS.filter((s) => scenarios.includes(s)),
    duration: number('duration', values.duration),
    rate: number('rate', values.rate),
    numbers: number('numbers', values.numbers),
    idle: number('idle', values.idle),
    write: !values['no-write'],
    profile: values.profile.split(',').map((s) => s.trim()).filter(Boolean),
    pgSample: values['pg-sample'],
  };
}

function machine() {
  const cpus = os.cpus();
  let neighbours = '';
  try {
    // What else runs here: the busiest processes that are not this run's.
    neighbours = execFileSync('ps', ['-eo', 'pcpu,rss,comm', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .slice(0, 8)
      .map((l) => l.trim().split(/\s+/))
      .map(([cpu, rss, comm]) => `${comm} ${cpu}% CPU ${Math.round(Number(rss) / 1024)} MB`)
      .join('; ');
  } catch {
    neighbours = 'unknown';
  }
  return {
    cpus: `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    load: os.loadavg().map((l) => l.toFixed(2)).join(' '),
    neighbours,
  };
}

const SHORT = { gateway: 'gw', 'agent-service': 'agent', 'messaging-service': 'msg', 'responder-service': 'resp', 'webhook-service': 'wh', 'whatsapp-sandbox': 'sbx' };

function rssText(rss) {
  if (!rss) return '';
  return Object.entries(rss)
    .map(([app, mb]) => `${SHORT[app] ?? app} ${mb}`)
    .join(', ');
}

/** CPU ms each process spent per event the row counts as handled (a send, an inbound message, a delivery). */
function cpuPerEvent(r) {
  if (!r.cpu || !r.handled) return null;
  return Object.fromEntries(Object.entries(r.cpu).map(([app, s]) => [app, round((s * 1000) / r.handled, 2)]));
}

const ms = (v) => (v === null || v === undefined ? '–' : String(round(v, 1)));

function table(rows) {
  const head = '| scenario | offered/s | achieved/s | p50 ms | p90 ms | p99 ms | max ms | errors | ceiling/s | ratio | peak RSS MB | CPU s | CPU ms/event | note |';
  const line = '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- | --- | --- | --- |';
  const body = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.offered ?? ''} | ${r.achieved ?? ''} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors ?? ''} | ${r.ceiling ?? ''} | ${r.ratio ?? ''} | ${rssText(r.rss)} | ${rssText(r.cpu)} | ${rssText(cpuPerEvent(r))} | ${r.note ?? ''} |`,
  );
  return [head, line, ...body].join('\n');
}

function report({ rows, stacks, m, startedAt, seconds }) {
  const starts = stacks.map((s) => `${s.scenario} ${(s.startMs / 1000).toFixed(1)} s`).join(', ');
  const migrations = stacks.map((s) => (s.migrateMs / 1000).toFixed(1)).join(', ');
  const idle = Object.fromEntries(APPS.map((app) => [app, Math.max(...stacks.map((s) => s.idle[app] ?? 0))]));
  return `${START}
_Written by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` on ${startedAt.toISOString()} (${Math.round(seconds)} s in total). Scenarios and targets:
/work/shared/BENCHMARKS.md; how the suite works: tools/bench/README.md._

**Machine:** ${m.cpus}; ${m.memory} RAM; Node ${m.node}; ${m.os}. Load average at the start ${m.load}.
Shared with Kafka, PostgreSQL, Redis, the six services, the load generator and other engineers' test runs; busiest
processes at the start: ${m.neighbours}.

**Stack start** (each scenario on a fresh stack): every service ready after ${starts} from launch (target: the
whole stack ready ≤ 30 s); migrations before it ${migrations} s.

**Idle RSS (MB)** after start-up, highest over the stacks: ${APPS.map((a) => `${a} ${idle[a] || '–'}`).join(', ')} (target ≤ 120 each).

${table(rows)}
${rows
  .filter((r) => r.details)
  .map((r) => `\n${r.details}\n`)
  .join('')}
Peak RSS columns: gw gateway, agent agent-service, msg messaging-service, resp responder-service, wh webhook-service,
sbx whatsapp-sandbox (target ≤ 200 MB each under load). "CPU s": CPU seconds (user + system) each process used
during the measured time, with the same abbreviations; "CPU ms/event" divides them by the events the row counts (sends
answered 2xx, inbound messages delivered, deliveries, messages at the provider). Ceiling rows show the ceiling process's own RSS and CPU. "errors" are
non-2xx answers and time-outs (send), events not delivered within 15 s of the scenario's end (inbound, fan-out,
outbound). Latency: send from the request to its answer; inbound from the POST of the notification to the receiver
holding the signed \`message.received\`; fan-out from the publish to the receiver; outbound from \`accepted_at\` to the
sandbox storing the message; replies from a customer writing in (the sandbox's \`POST /_sandbox/inbound\`) to the sandbox
storing the agent's answer, "errors" there being replies missing after 30 s.
${END}`;
}

function writeDoc(generated) {
  const intro = '# Benchmarks\n\nThe latest results of `npm run bench` (issue 8), then what limits the targets it misses.\n\n';
  const gaps = '\n\n## Known gaps\n\n(none recorded yet)\n';
  const current = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `${intro}${START}\n${END}${gaps}`;
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  const next = from >= 0 && to > from ? `${current.slice(0, from)}${generated}${current.slice(to + END.length)}` : `${intro}${generated}${gaps}`;
  writeFileSync(DOC, next);
}

/** Benches with a stack of their own (or none), run by name (`npm run bench -- campaign 100000 1000`): they print their own figures. */
const SCRIPTS = { campaign: 'campaign.cjs', embedding: 'embedding.mjs', understanding: 'understanding.mjs', 'inbox-search': 'inbox-search.mjs', 'agent-loop': 'agent-loop.mjs', reports: 'reports.mjs' };
/** Of those, the ones on Kafka (campaign-service and crm-service, no Redis); the others need no broker. */
const ON_KAFKA = ['campaign'];

async function runScript(name, args) {
  if (ON_KAFKA.includes(name)) await infrastructureForTool('bench', { redis: false });
  build();
  const run = spawnSync(process.execPath, [path.join(ROOT, 'tools/bench', SCRIPTS[name]), ...args], { stdio: 'inherit' });
  await exitTool(run.status ?? 1);
}

async function main() {
  if (SCRIPTS[process.argv[2]]) return runScript(process.argv[2], process.argv.slice(3));
  const opts = options();
  await infrastructureForTool('bench');
  const startedAt = new Date();
  const m = machine();
  log(`bench: ${opts.scenarios.join(', ')} on ${m.cpus}, load ${m.load}`);
  log('bench: building');
  build();
  const rows = [];
  const stacks = [];
  let platform = null;
  const onSignal = () => {
    log('bench: interrupted; stopping the stack');
    void (platform?.stop() ?? Promise.resolve()).finally(() => exitTool(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // Each scenario on a freshly started stack (BENCHMARKS.md): no scenario inherits another's backlog.
  for (const scenario of opts.scenarios) {
    const seconds = opts.duration ?? DEFAULTS[scenario].seconds;
    const rate = opts.rate ?? DEFAULTS[scenario].rate;
    log(`\n== ${scenario}: starting the stack (own ports, database and Kafka namespace)`);
    platform = await Platform.start({ log, profile: opts.profile, statusCallbacks: !CALLBACKS_OFF[scenario] });
    try {
      log(`bench: stack ready in ${(platform.startMs / 1000).toFixed(1)} s (migrations ${(platform.migrateMs / 1000).toFixed(1)} s)`);
      await delay(IDLE_SETTLE_MS);
      const idle = platform.rss();
      log(`bench: idle RSS ${JSON.stringify(idle)}`);
      stacks.push({ scenario, startMs: platform.startMs, migrateMs: platform.migrateMs, idle });
      const args = { platform, seconds, rate, numbers: opts.numbers, idleSeconds: opts.idle, pgSample: opts.pgSample, log };
      const first = rows.length;
      try {
        if (scenario === 'send') rows.push(...(await sendScenario(args)));
        if (scenario === 'inbound') rows.push(...(await inboundScenario({ ...args, searchRates: INBOUND_SEARCH_RATES, stepSeconds: Math.min(seconds, INBOUND_STEP_SECONDS) })));
        if (scenario === 'fanout') rows.push(...(await fanoutScenario(args)));
        if (scenario === 'outbound') rows.push(...(await outboundScenario(args)));
        if (scenario === 'cost') rows.push(...(await costScenario(args)));
        if (scenario === 'costinbound') rows.push(...(await inboundCostScenario(args)));
        if (scenario === 'replies') rows.push(...(await campaignRepliesScenario(args)));
      } catch (err) {
        // One scenario's failure is reported in its row; the others still run.
        log(`bench: ${scenario} failed: ${err?.stack ?? err}`);
        rows.push({ scenario, note: `failed: ${String(err?.message ?? err).split('\n')[0].slice(0, 200)}` });
      }
      if (CALLBACKS_OFF[scenario]) for (const r of rows.slice(first)) r.note = [CALLBACKS_OFF[scenario], r.note].filter(Boolean).join('; ');
    } finally {
      log('bench: stopping the stack');
      await platform.stop();
      platform = null;
    }
  }
  const generated = report({ rows, stacks, m, startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000 });
  console.log(`\n${generated.split('\n').slice(1, -1).join('\n')}`);
  if (opts.write) {
    writeDoc(generated);
    log(`bench: wrote ${path.relative(process.cwd(), DOC)}`);
  }
  await exitTool(0);
}

main().catch((err) => {
  console.error(err);
  return exitTool(1);
});
