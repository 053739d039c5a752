#!/usr/bin/env node
// `npm run soak` (issue 9): mixed load at a moderate rate against the built stack for a long time (30 min by default),
// sampling every service's memory and every consumer group's lag; judges memory flat, lag not growing, nothing lost,
// no error in the logs. Prints the tables, writes tmp/soak/<timestamp>/{report.md,memory.svg,lag.svg}. Exit code 1 on
// a failed verdict, 2 when the run itself broke. See tools/soak/README.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitTool, infrastructureForTool } from '../dev/lib/runner.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
const { parseDuration, parseRates, MEMORY_DEFAULTS, LAG_DEFAULTS } = require('./lib/analysis.cjs');
const { runSoak } = require('./lib/soak.cjs');

const usage = `usage: npm run soak -- [--duration 30m] [--rate 20 | --rate send=20,inbound=20,read=10] [--sample 10s]
  [--agent-change 30s] [--drain 2m] [--tenants 3] [--numbers 2] [--warmup 0.2] [--slope-limit ${MEMORY_DEFAULTS.slopeLimitMbPer10Min}]
  [--margin ${MEMORY_DEFAULTS.marginMb}] [--lag-growth ${LAG_DEFAULTS.growthLimit}] [--out DIR] [--no-build]`;
const log = (message) => process.stderr.write(`${message}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '30m' },
      rate: { type: 'string' },
      sample: { type: 'string', default: '10s' },
      'agent-change': { type: 'string', default: '30s' },
      drain: { type: 'string', default: '2m' },
      tenants: { type: 'string', default: '3' },
      numbers: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '0.2' },
      'slope-limit': { type: 'string', default: String(MEMORY_DEFAULTS.slopeLimitMbPer10Min) },
      margin: { type: 'string', default: String(MEMORY_DEFAULTS.marginMb) },
      'lag-growth': { type: 'string', default: String(LAG_DEFAULTS.growthLimit) },
      out: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const number = (name, min, max = Infinity) => {
    const n = Number(values[name]);
    if (!(n >= min && n <= max)) throw new Error(`--${name} must be a number from ${min}${max < Infinity ? ` to ${max}` : ''}\n${usage}`);
    return n;
  };
  return {
    durationMs: parseDuration(values.duration),
    rates: parseRates(values.rate),
    sampleMs: parseDuration(values.sample),
    agentChangeMs: parseDuration(values['agent-change']),
    drainTimeoutMs: parseDuration(values.drain),
    tenants: Math.round(number('tenants', 1, 50)),
    numbers: Math.round(number('numbers', 1, 20)),
    warmupShare: number('warmup', 0, 0.9),
    memory: { slopeLimitMbPer10Min: number('slope-limit', 0), marginMb: number('margin', 0) },
    lag: { growthLimit: number('lag-growth', 0) },
    outDir: values.out ? path.resolve(values.out) : undefined,
    build: !values['no-build'],
  };
}

async function main() {
  const opts = options();
  await infrastructureForTool('soak');
  if (opts.build) {
    log('building dist/ ...');
    if (spawnSync(process.execPath, [path.join(ROOT, 'tools/dev/swc-build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) throw new Error('the build failed');
  }
  const abort = new AbortController();
  // First Ctrl-C: stop the load, drain, judge what ran and write the report. The stack's processes live in groups of
  // their own (detached), so the signal reaches only this process, whose clean-up stops them.
  const onSignal = (signal) => {
    if (abort.signal.aborted) {
      log(`\n${signal} again: exiting (the stack is killed on exit)`);
      process.exit(130);
    }
    log(`\n${signal}: stopping the load; the report follows (again to stop at once) ...`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const { text, files, passed } = await runSoak({ ...opts, log, signal: abort.signal });
  console.log(`\n${text}\n`);
  console.log(`report: ${path.relative(process.cwd(), files.report)}`);
  console.log(`memory chart: ${path.relative(process.cwd(), files.memory)}`);
  console.log(`lag chart: ${path.relative(process.cwd(), files.lag)}`);
  console.log(`samples: ${path.relative(process.cwd(), files.samples)}`);
  return passed ? (abort.signal.aborted ? 130 : 0) : 1;
}

main().then(
  (code) => exitTool(code),
  (err) => {
    log(`soak: ${err?.stack ?? err}`);
    return exitTool(2);
  },
);
