#!/usr/bin/env node
// `npm test` (and CI, through .ci/run): every test tier on real Apache Kafka and PostgreSQL.
//
//   1. lint, typecheck, unit     nx run-many -t lint typecheck test            (*.spec.ts, no I/O)
//   2. integration               jest --config jest.integration.config.cjs     (*.integration-spec.ts, real Kafka + Postgres)
//   3. end-to-end                the built stack over HTTP                     (apps/platform-e2e, *.e2e-spec.ts)
//
// Installs what is missing, starts the local broker when none runs (and stops it again at the end), builds, then runs
// every tier whatever the previous ones gave, and ends with a summary and the line `N passed, N failed`.
import { join } from 'node:path';
import stack from './lib/stack.cjs';
import failureReading from './lib/test-failures.cjs';
import leftovers from './lib/leftovers.cjs';
import {
  ReportedError,
  build,
  checkInfrastructure,
  color,
  currentChild,
  ensureChromium,
  ensureDependencies,
  ensureKafka,
  ensureModels,
  formatMs,
  killTree,
  root,
  run,
  say,
  step,
  stopKafka,
} from './lib/runner.mjs';

const { TestFailureCollector } = failureReading;
const bin = (name) => join(root, 'node_modules', '.bin', name);

/**
 * Each tier has a deadline, and all of them share one budget, so a hung test can never hold CI (90 minutes): the whole
 * run ends within 75 minutes whatever happens (12 + 28 + 35). On the 2-core machines of 2026-12 (a bare Fastify route
 * answers 5,400 requests/s) the tiers take about 5, 14 and 20 minutes alone, and all three overran the earlier 8/16/20
 * when anything else ran beside them (a fresh clone at 86a0c97: every tier timed out). The deadlines are there to end
 * a hang, not to time the suite; its times are in the summary. A fresh-clone run on 2 cores took 25 min 23 s of tiers with
 * other work beside it (unit 5.5, integration 14, end-to-end 6), plus 2–3 min of `npm ci` before the budget's tiers.
 * Integration was then 60 suites in 15 min, each stop of a service taking 4.4 s while its consumers' idle fetches ran out
 * (kafkajs holds one 5 s; the tests now run services with KAFKA_FETCH_MAX_WAIT_MS=250, a stop takes 0.1 s): back to back
 * on the same busy machine, webhook-service's suites went from 209 s to 129 s (agent-service's from 75 s to 44 s, a 30 s
 * wait of one spec gone too). The integration deadline leaves room for the services being added.
 */
const BUDGET_MS = Number(process.env.PARLEY_TEST_BUDGET_MS ?? 75 * 60_000);
const tiers = [
  {
    name: 'lint, typecheck, unit',
    command: bin('nx'),
    args: ['run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2', '--outputStyle=static'],
    timeoutMs: 12 * 60_000,
  },
  {
    name: 'integration',
    command: bin('jest'),
    // every project's suites in one run (jest.integration.config.cjs): one project after another kept the 2 cores 47 %
    // busy, the suites mostly waiting on the broker and the database; two workers still left 29 % idle, and three took
    // the tier from 10.8–11.6 min to 7.6 (2026-12-06)
    args: ['--config', 'jest.integration.config.cjs', '--maxWorkers=3'],
    timeoutMs: 28 * 60_000,
  },
  {
    name: 'end-to-end',
    command: bin('jest'),
    args: ['--config', 'apps/platform-e2e/jest.config.cjs', '--runInBand'],
    // fifteen files share one stack (apps/platform-e2e/global-setup.mjs: starting, migrating and stopping one took ~25 s
    // of each); the ones that stop, kill or configure services start their own
    timeoutMs: 35 * 60_000,
    needsBuild: true,
  },
];

let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    say(color.yellow(`\n${sig} received: stopping the tests...`));
    const child = currentChild();
    killTree(child);
    // nx keeps its tasks in process groups of their own and may take its time: ten seconds, then no more asking (what
    // the tier started and outlives it is ended after it, endLeftovers)
    setTimeout(() => killTree(child, 'SIGKILL'), 10_000).unref();
  });
}

async function runTier(tier, env, deadline) {
  const started = Date.now();
  const timeoutMs = Math.max(0, Math.min(tier.timeoutMs, deadline - started));
  say('');
  say(color.bold(`━━ ${tier.name} ━━`));
  say(color.dim(`$ ${[tier.command.replace(`${root}/`, ''), ...tier.args].join(' ')}`));
  let timedOut = false;
  const failures = new TestFailureCollector();
  const pending = run(tier.command, tier.args, { env, group: true, onOutput: (chunk) => failures.push(chunk) });
  const child = currentChild();
  const timer = setTimeout(() => {
    timedOut = true;
    say(color.red(`${tier.name}: no result within ${formatMs(timeoutMs)}; stopping it`));
    killTree(child, 'SIGTERM');
    setTimeout(() => killTree(child, 'SIGKILL'), 10_000).unref();
  }, timeoutMs);
  const { code } = await pending;
  clearTimeout(timer);
  // Whatever the tier started (nx workers, jest children) goes with it.
  killTree(child, 'SIGKILL');
  const leftBehind = await endLeftovers(tier.name);
  const note = [timedOut ? `timed out after ${formatMs(timeoutMs)}` : code === 0 ? '' : `exit code ${code}`, leftBehind].filter(Boolean).join('; ');
  return { name: tier.name, ok: code === 0 && !timedOut, ms: Date.now() - started, note, failures: failures.failures() };
}

/**
 * Services run in process groups of their own and stop when their owner dies (their stdin lifeline), so a tier should
 * leave nothing behind; if it did (a process that ignores both), it is named and ended here rather than left holding
 * ports and memory on the machine. The broker the run started stays until the end.
 */
async function endLeftovers(tierName) {
  // a service whose owner just died takes up to its shutdown grace (8 s) to go by itself
  const deadline = Date.now() + 12_000;
  let found = leftovers.processesOf(root, { keep: isKafkaBroker });
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    found = leftovers.processesOf(root, { keep: isKafkaBroker });
  }
  if (found.length === 0) return '';
  say(color.yellow(`${tierName}: ${found.length} process(es) outlived the tier; ending them:`));
  for (const { pid, command } of found) say(color.yellow(`  ${pid} ${command.replaceAll(`${root}/`, '').slice(0, 160)}`));
  const killed = await leftovers.endProcesses(found);
  return `${found.length} process(es) left behind and ended${killed.length ? ` (${killed.length} needed SIGKILL)` : ''}`;
}

/** The broker this run started in the checkout's .kafka (stopped at the end); a spec's private broker is no keeper. */
const isKafkaBroker = (command) => / kafka\.Kafka /.test(` ${command} `) && command.includes(`${root}/.kafka/`);

/** Under a failed tier's summary line: its failed test files and tests (a CI log keeps only the tail of the run). */
function sayFailures({ files, tasks }) {
  const MAX_TESTS = 5;
  for (const { file, project, tests } of files) {
    say(`      ${color.red('FAIL')} ${file}${project ? color.dim(`  (${project})`) : ''}`);
    for (const { title, reason } of tests.slice(0, MAX_TESTS)) {
      say(`        ● ${title}${reason ? color.dim(`: ${reason.slice(0, 160)}`) : ''}`);
    }
    if (tests.length > MAX_TESTS) say(color.dim(`        ... and ${tests.length - MAX_TESTS} more`));
  }
  // an nx task can fail with no jest FAIL line (lint, typecheck, a crash before jest reports)
  if (tasks.length) say(`      failed tasks: ${tasks.join(', ')}`);
}

async function main() {
  const startedAt = Date.now();
  const deadline = startedAt + BUDGET_MS;
  // The infrastructure settings come from the same files as `npm start`; the tests make their own databases and topics.
  const { env: config } = stack.loadEnv();
  say(color.bold('Parley: running every test tier'));

  await step('dependencies', ensureDependencies);
  await step('infrastructure', () => checkInfrastructure(config));
  // before the broker: a failure here then leaves nothing running
  await step('embedding model', () => ensureModels(config));
  let broker;
  await step('Kafka', async () => {
    broker = await ensureKafka(config);
    return `${broker.brokers} (${broker.started ? 'started for this run, stopped at the end' : 'already running'})`;
  });

  // Without Chromium only the dashboard's browser tests fail (saying why); every other tier still runs.
  await step('Chromium (dashboard browser tests)', ensureChromium).catch(() => undefined);

  const results = [];
  try {
    let built = true;
    try {
      await step('build', build);
    } catch {
      built = false;
    }

    const postgres = new URL(config.DATABASE_URL);
    postgres.pathname = '/postgres';
    const env = {
      ...process.env,
      // the tiers' output runs through a pipe (to read which tests failed); keep jest's colours on a terminal
      ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      PARLEY_INFRA_READY: '1',
      KAFKA_BROKERS: broker.brokers,
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      TEST_POSTGRES_URL: process.env.TEST_POSTGRES_URL ?? postgres.toString(),
      REDIS_URL: config.REDIS_URL,
    };
    for (const tier of tiers) {
      if (interrupted) break;
      if (tier.needsBuild && !built) {
        results.push({ name: tier.name, ok: false, ms: 0, note: 'not run: the build failed' });
        continue;
      }
      if (Date.now() >= deadline) {
        results.push({ name: tier.name, ok: false, ms: 0, note: `not run: the ${formatMs(BUDGET_MS)} budget is spent` });
        continue;
      }
      results.push(await runTier(tier, env, deadline));
    }
  } finally {
    if (broker.started) await stopKafka();
  }

  say('');
  say(color.bold(`Summary (${formatMs(Date.now() - startedAt)})`));
  const width = Math.max(...tiers.map((t) => t.name.length));
  for (const tier of tiers) {
    const result = results.find((r) => r.name === tier.name);
    if (!result) say(`  ${color.yellow('-')} ${tier.name.padEnd(width)}  not run (interrupted)`);
    else {
      const mark = result.ok ? color.green('✓ passed') : color.red('✗ failed');
      say(`  ${mark}  ${tier.name.padEnd(width)}  ${formatMs(result.ms).padStart(10)}${result.note ? `  ${result.note}` : ''}`);
      if (!result.ok && result.failures) sayFailures(result.failures);
    }
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = tiers.length - passed;
  say(`${passed} passed, ${failed} failed`);
  return failed === 0 && !interrupted ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (!(err instanceof ReportedError)) say(color.red(String(err?.stack ?? err)));
    say(`0 passed, ${tiers.length} failed`);
    process.exit(1);
  },
);
