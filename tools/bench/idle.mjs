#!/usr/bin/env node
// The idle stack's CPU (BENCHMARKS.md scenario 5, its idle half): builds, starts the six services on free ports with
// a database and a Kafka namespace of their own, status callbacks on as in production, lets them settle, then reads
// each process's CPU over a quiet minute. Prints one line per service and the total; asserts nothing.
//
//   node tools/bench/idle.mjs [--seconds 60] [--settle 10] [--profile gateway,crm-service]
//
// `--profile`: those services run under --cpu-prof; their profiles land in tmp/bench-profiles/ when the stack stops
// (read the idle part with `node tools/bench/profile-top.mjs <file> --last <seconds>`).
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { idleCpu } from './lib/idle.mjs';
import { delay } from './lib/measure.mjs';
import { ROOT, build } from './lib/platform.mjs';

const require = createRequire(import.meta.url);
const { Platform } = require(path.join(ROOT, 'tools/dev/lib/platform.cjs'));

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, settle: { type: 'string', default: '10' }, profile: { type: 'string' } } });
const profileDir = path.join(ROOT, 'tmp', 'bench-profiles');
const nodeArgs = Object.fromEntries((values.profile ?? '').split(',').filter(Boolean).map((app) => [app, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${app}.idle.cpuprofile`]]));
const log = (message) => process.stderr.write(`${message}\n`);

build();
const platform = await Platform.start({
  name: 'idle',
  logDir: path.join(ROOT, 'tmp', 'logs', 'idle'),
  log,
  restart: false,
  detached: false,
  env: { SANDBOX_STATUS_CALLBACKS: 'true' },
  nodeArgs,
});
const stop = () => void platform.stop().finally(() => process.exit(130));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
/** `{ app: pid }` of every running service. */
function pidsOf(p) {
  return Object.fromEntries(p.services().filter((s) => s.child?.pid).map((s) => [s.app ?? s.name, s.child.pid]));
}

try {
  // Start-up work (JIT, consumer group joins, first sweeps) is not idle.
  await delay(Number(values.settle) * 1000);
  log(`idle: measuring ${values.seconds} s`);
  const { percent, total, seconds } = await idleCpu(pidsOf(platform), { seconds: Number(values.seconds) });
  console.log(`idle CPU over ${seconds} s, % of one core (targets: each ≤ 2, all ≤ 10)`);
  for (const [app, p] of Object.entries(percent)) console.log(`  ${app.padEnd(18)} ${p === null ? 'exited' : p.toFixed(2)}`);
  console.log(`  ${'total'.padEnd(18)} ${total.toFixed(2)}`);
} finally {
  await platform.stop();
}
process.exit(0);
