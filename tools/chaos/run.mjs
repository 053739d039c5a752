#!/usr/bin/env node
// `npm run chaos` (issue 9): the crash suite. Builds dist/, then runs each selected scenario of
// tools/chaos/scenarios/*.mjs (in their `order`); each scenario starts its own stack (built services on free ports,
// a database, Kafka namespace and Redis prefix of its own), breaks something, checks what must hold, and stops it.
// Prints each scenario's figures and a verdict. Exit 0 all passed, 1 a scenario found a failure, 2 the run broke
// (a scenario threw), 130 interrupted. See tools/chaos/README.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { exitTool, infrastructureForTool } from '../dev/lib/runner.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCENARIO_DIR = path.join(import.meta.dirname, 'scenarios');

const usage = `usage: npm run chaos -- [--scenario a,b (all)] [--messages N] [--rate per-second] [--tenants N]
                        [--failure-rate 0..1] [--no-kill | --only-kill a,b] [--no-build] [--list]
  --scenario      scenarios to run, comma-separated (default: all, in their fixed order); --list shows them
  --messages      inbound messages (kill-rotation: 5000)
  --rate          messages per second offered (kill-rotation: 100)
  --tenants       tenants the messages are spread over (kill-rotation: 50)
  --failure-rate  share of webhook requests each tenant's receiver fails (kill-rotation: 0.3)
  --no-kill       kill-rotation without killing anything (a baseline)
  --only-kill a,b kill-rotation killing only these services, in this order (to chase one service's defect)
  --no-build      use dist/ as it is
Other --name value options are handed to the scenarios as they are (camelCased, numbers parsed).`;

const started = Date.now();
let lastLineAt = 0;
let current = '';
const stamp = () => {
  const s = Math.floor((Date.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const log = (message) => {
  lastLineAt = Date.now();
  process.stderr.write(`[chaos ${stamp()}] ${message}\n`);
};

const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function options() {
  const { values, tokens } = parseArgs({
    strict: false,
    tokens: true,
    options: {
      scenario: { type: 'string' },
      messages: { type: 'string' },
      rate: { type: 'string' },
      tenants: { type: 'string' },
      'failure-rate': { type: 'string' },
      'no-kill': { type: 'boolean' },
      'no-build': { type: 'boolean' },
      list: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  // Unknown options (a scenario's own) parse as booleans in non-strict mode: `--name value` takes the value after it.
  for (const [i, token] of tokens.entries()) {
    const next = tokens[i + 1];
    if (token.kind === 'option' && token.value === undefined && values[token.name] === true && next?.kind === 'positional') {
      values[token.name] = next.value;
    }
  }
  const args = {};
  for (const [key, value] of Object.entries(values)) {
    if (['scenario', 'no-kill', 'no-build', 'list', 'help'].includes(key)) continue;
    args[camel(key)] = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  for (const key of ['messages', 'rate', 'tenants']) {
    if (args[key] !== undefined && !(Number.isInteger(args[key]) && args[key] > 0)) throw new UsageError(`--${key} must be a positive whole number`);
  }
  if (args.failureRate !== undefined && !(typeof args.failureRate === 'number' && args.failureRate >= 0 && args.failureRate < 1)) {
    throw new UsageError('--failure-rate must be a number from 0 to below 1');
  }
  args.kill = !values['no-kill'];
  return { args, scenario: values.scenario, build: !values['no-build'], list: Boolean(values.list), help: Boolean(values.help) };
}

class UsageError extends Error {}

/** Every scenario module, in its fixed order. */
async function discover() {
  const files = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.mjs')).sort();
  const modules = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(path.join(SCENARIO_DIR, file)).href);
    if (typeof mod.name !== 'string' || typeof mod.run !== 'function' || typeof mod.order !== 'number') {
      throw new Error(`${path.relative(ROOT, path.join(SCENARIO_DIR, file))} does not export name, order and run(ctx)`);
    }
    modules.push(mod);
  }
  return modules.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

function table(figures) {
  const rows = Object.entries(figures).map(([k, v]) => [k, String(v)]);
  const w0 = Math.max(6, ...rows.map(([k]) => k.length));
  const w1 = Math.max(5, ...rows.map(([, v]) => v.length));
  return [`  ${'figure'.padEnd(w0)}  ${'value'.padStart(w1)}`, `  ${'-'.repeat(w0)}  ${'-'.repeat(w1)}`, ...rows.map(([k, v]) => `  ${k.padEnd(w0)}  ${v.padStart(w1)}`)].join('\n');
}

async function main() {
  let opts;
  try {
    opts = options();
  } catch (err) {
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
  if (opts.help) {
    console.log(usage);
    return 0;
  }
  const all = await discover();
  if (opts.list) {
    for (const s of all) console.log(`${s.order}. ${s.name}: ${s.description ?? ''}`);
    return 0;
  }
  const wanted = opts.scenario ? opts.scenario.split(',').map((s) => s.trim()).filter(Boolean) : all.map((s) => s.name);
  const unknown = wanted.filter((w) => !all.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`unknown scenario ${unknown.join(', ')}; one of ${all.map((s) => s.name).join(', ')}\n${usage}`);
    return 2;
  }
  await infrastructureForTool('chaos');
  const selected = all.filter((s) => wanted.includes(s.name));

  if (opts.build) {
    log('building dist/ ...');
    if (spawnSync(process.execPath, [path.join(ROOT, 'tools/dev/swc-build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) {
      log('the build failed');
      return 2;
    }
  }

  // Ctrl-C: every scenario's signal aborts; it stops what it started. Again: leave at once (the stacks' exit hooks
  // SIGKILL their services).
  const abort = new AbortController();
  const onSignal = (sig) => {
    if (abort.signal.aborted) {
      log(`${sig} again: leaving now`);
      process.exit(130);
    }
    log(`${sig}: stopping the running scenario and everything it started (again to leave at once) ...`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Progress at least once a second, also while a scenario is quiet.
  const heartbeat = setInterval(() => {
    if (current && Date.now() - lastLineAt >= 1000) log(`${current}: running`);
  }, 1000);

  const results = [];
  try {
    for (const scenario of selected) {
      if (abort.signal.aborted) break;
      current = scenario.name;
      log(`scenario ${scenario.name}: ${scenario.description ?? ''}`);
      const t0 = Date.now();
      try {
        const ctx = { root: ROOT, args: { ...opts.args }, log: (m) => log(`${scenario.name}: ${m}`), signal: abort.signal };
        const result = await scenario.run(ctx);
        results.push({ name: scenario.name, seconds: (Date.now() - t0) / 1000, figures: result?.figures ?? {}, failures: result?.failures ?? [] });
      } catch (err) {
        results.push({ name: scenario.name, seconds: (Date.now() - t0) / 1000, figures: {}, failures: [], error: err?.stack ?? String(err) });
      }
      current = '';
    }
  } finally {
    clearInterval(heartbeat);
  }

  for (const r of results) {
    const verdict = r.error ? 'BROKE' : r.failures.length ? 'FAILED' : 'PASSED';
    console.log(`\n${r.name} (${r.seconds.toFixed(0)} s): ${verdict}`);
    if (Object.keys(r.figures).length) console.log(table(r.figures));
    for (const f of r.failures) console.log(`  ✗ ${f}`);
    if (r.error) console.log(`  the scenario broke: ${r.error}`);
  }
  const broke = results.filter((r) => r.error);
  const failed = results.filter((r) => !r.error && r.failures.length);
  const interrupted = abort.signal.aborted;
  console.log(
    `\n${interrupted ? 'INTERRUPTED' : broke.length ? 'BROKE' : failed.length ? 'FAILED' : 'PASSED'}: ${results.length - broke.length - failed.length}/${selected.length} scenarios passed` +
      `${failed.length ? `; failed: ${failed.map((r) => r.name).join(', ')}` : ''}${broke.length ? `; broke: ${broke.map((r) => r.name).join(', ')}` : ''}${interrupted ? '; interrupted' : ''}`,
  );
  // An interrupted scenario usually breaks (aborted mid-way): that is the interruption, not a broken run.
  if (interrupted) return 130;
  if (broke.length) return 2;
  return failed.length ? 1 : 0;
}

main().then(
  (code) => exitTool(code),
  (err) => {
    log(`chaos: ${err?.stack ?? err}`);
    return exitTool(2);
  },
);
