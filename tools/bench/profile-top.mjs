#!/usr/bin/env node
// Reads a V8 .cpuprofile (node --cpu-prof, e.g. `npm run bench -- cost --profile gateway`) and prints where the time
// went: the top functions by self time, and self time summed per package (node_modules/<name>, node: internals, ours).
//   node tools/bench/profile-top.mjs tmp/bench-profiles/gateway.*.cpuprofile [--top 20] [--last seconds]
// `--last`: only the samples of the profile's last seconds (the load window, without start-up's module loading).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '20' }, last: { type: 'string' } } });
const top = Number(values.top);

/** Where a function lives: the npm package, a node internal, our dist/ code, or V8 itself (GC, idle, program). */
function packageOf(url) {
  if (!url) return '(v8)';
  if (url.startsWith('node:')) return 'node:internal';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const ours = /dist\/(apps|libs)\/([^/]+)/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : path.basename(url);
}

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Self time per node: the sampling intervals attributed to it.
  const selfUs = new Map();
  const from = values.last ? profile.endTime - Number(values.last) * 1e6 : -Infinity;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from) continue;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const functions = new Map();
  const packages = new Map();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const where = callFrame.url ? `${callFrame.url.replace(/^.*?(node_modules\/|dist\/)/, '$1')}:${callFrame.lineNumber + 1}` : '';
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + us);
    const pkg = packageOf(callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  console.log(`\n${path.basename(file)}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy time)`);
  console.log(`top ${top} functions by self time:`);
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)} ${ms(us)}  ${key}`);
  console.log('self time per package:');
  for (const [key, us] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(us)} ${ms(us)}  ${key}`);
}

if (positionals.length === 0) {
  console.error('usage: node tools/bench/profile-top.mjs <file.cpuprofile> [...] [--top 20]');
  process.exit(2);
}
for (const file of positionals) summarise(file);
