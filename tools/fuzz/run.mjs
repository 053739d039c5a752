#!/usr/bin/env node
// `npm run fuzz` (issue 9): property-based and mutation fuzzing of every public route (discovered from the running
// gateway's /openapi.json) and of the signed WhatsApp provider webhook, against the built stack on free ports with a
// database, a Kafka namespace and a Redis prefix of its own. Exits non-zero on any 5xx, non-problem error, leaked
// internals or secret, unhealthy service afterwards, or tenant secret in the services' logs. See tools/fuzz/README.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitTool, infrastructureForTool } from '../dev/lib/runner.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
const { APPS, startPlatform } = require(path.join(ROOT, 'tools/dev/lib/platform.cjs'));
const { caseBatches, routesFromOpenApi } = require('./lib/cases.cjs');
const { createTenant, credentialsOf, curl, distinctFailures, readiness, runCases, untilReady, scanLogs, secretsOf, shrink } = require('./lib/fuzz.cjs');

const usage = `usage: npm run fuzz -- [--cases N (50000)] [--seed S (random)] [--concurrency C (16)] [--webhook-share 0.3] [--no-build]`;
const log = (message) => process.stderr.write(`${message}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '50000' },
      seed: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
      'webhook-share': { type: 'string', default: '0.3' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const int = (name, v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer\n${usage}`);
    return n;
  };
  const share = Number(values['webhook-share']);
  if (!(share >= 0 && share <= 1)) throw new Error(`--webhook-share must be between 0 and 1\n${usage}`);
  return {
    cases: int('cases', values.cases),
    seed: values.seed === undefined ? (Date.now() ^ (Math.random() * 2 ** 31)) | 0 : Number.parseInt(values.seed, 10) | 0,
    concurrency: int('concurrency', values.concurrency),
    webhookShare: share,
    build: !values['no-build'],
  };
}

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main() {
  const opts = options();
  await infrastructureForTool('fuzz');
  log(`fuzz: ${opts.cases} cases, seed ${opts.seed} (reproduce with --seed ${opts.seed} --cases ${opts.cases}), concurrency ${opts.concurrency}`);
  if (opts.build) {
    log('building dist/ ...');
    if (spawnSync(process.execPath, [path.join(ROOT, 'tools/dev/swc-build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) throw new Error('the build failed');
  }
  log('starting the stack ...');
  // The six built services with a database, Kafka namespace and Redis prefix of their own, logs in tmp/logs/fuzz; LOG_LEVEL
  // info, not warn: the secret scan must see the request logs too.
  const platform = await startPlatform({ name: 'fuzz', logDir: path.join(ROOT, 'tmp', 'logs', 'fuzz'), log, env: { LOG_LEVEL: 'info', WEBHOOK_RETRY_SCHEDULE: '1,1,2' } });
  const { stack, env } = platform;
  const abort = new AbortController();
  let stopping;
  const shutdown = () => (stopping ??= platform.stop());
  // First Ctrl-C: stop sending, report what ran, stop the stack. Second: stop the stack at once.
  const onSignal = (signal) => {
    if (abort.signal.aborted) {
      log(`\n${signal}: stopping the stack now ...`);
      shutdown().finally(() => exitTool(130));
      return;
    }
    log(`\n${signal}: finishing the requests in flight, then the summary (again to stop at once) ...`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const failures = [];
  try {
    const gateway = stack.url('gateway');
    const tenants = [await createTenant(gateway, env.ADMIN_TOKEN, 'Fuzz Tenant One'), await createTenant(gateway, env.ADMIN_TOKEN, 'Fuzz Tenant Two')];
    const secrets = secretsOf(tenants);
    // Answers may carry only secrets that are legitimately shown again after set-up (a webhook's, at GET …/secret).
    const forbidden = secrets.filter((s) => !s.name.endsWith('webhook_secret'));
    const doc = await (await fetch(`${gateway}/openapi.json`)).json();
    const all = routesFromOpenApi(doc);
    const routes = all.filter((r) => !r.streaming);
    log(`${all.length} operations in /openapi.json; fuzzing ${routes.length} (left out, never-ending streams: ${all.filter((r) => r.streaming).map((r) => `${r.method} ${r.template}`).join(', ') || 'none'})`);

    const started = Date.now();
    let lastReport = started;
    const tally = await runCases(
      gateway,
      caseBatches({
        doc,
        routes,
        credentials: credentialsOf(tenants, env.ADMIN_TOKEN),
        knownIds: tenants.flatMap((t) => t.ids),
        appSecret: env.META_APP_SECRET,
        phoneNumberIds: tenants.flatMap((t) => t.phoneNumberIds),
        count: opts.cases,
        seed: opts.seed,
        webhookShare: opts.webhookShare,
      }),
      {
        concurrency: opts.concurrency,
        forbidden,
        onNoAnswer: () => untilReady(gateway),
        signal: abort.signal,
        onProgress: (t) => {
          if (Date.now() - lastReport < 5000) return;
          lastReport = Date.now();
          const s = (Date.now() - started) / 1000;
          log(`  ${t.total}/${opts.cases} cases, ${Math.round(t.total / s)}/s, ${t.failures.length} failures, statuses ${JSON.stringify(t.statuses)}`);
        },
      },
    );
    const seconds = (Date.now() - started) / 1000;
    const groups = distinctFailures(tally.failures);
    for (const g of groups.slice(0, 10)) g.minimal = await shrink(gateway, g, { appSecret: env.META_APP_SECRET, forbidden });

    // Everything the fuzzing caused downstream (inbound messages, deliveries) must not have broken a service.
    const ready = await readiness(stack.urls());
    // The supervisor restarts a crashed service so the run goes on; every exit still fails the run.
    const crashed = APPS.filter((app) => stack.services.get(app)?.exits > 0).map((app) => `${app} (${stack.services.get(app).exits}×)`);
    await shutdown();
    const leaks = scanLogs(APPS.map((app) => stack.logFile(app)), secrets);

    console.log(`\nFuzz: ${tally.total} cases in ${seconds.toFixed(0)} s (${Math.round(tally.total / seconds)}/s), seed ${opts.seed}\n`);
    console.log(table(Object.entries(tally.byRoute).sort().map(([route, r]) => [route, r.cases, Object.entries(r.statuses).map(([s, n]) => `${s}:${n}`).join(' ')]), ['route', 'cases', 'statuses']));
    console.log(`\nstatus histogram: ${Object.entries(tally.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
    console.log(`readiness afterwards: ${Object.entries(ready).map(([a, s]) => `${a} ${s}`).join(', ')}`);
    console.log(`services that exited: ${crashed.join(', ') || 'none'}`);
    console.log(`secrets in the services' logs (${secrets.length} secrets, ${APPS.length} logs): ${leaks.length ? '' : 'none'}`);
    for (const l of leaks) console.log(`  ${l.secret} in ${path.relative(ROOT, l.file)}: ${l.line}`);

    failures.push(...leaks.map((l) => `${l.secret} in ${path.relative(ROOT, l.file)}`));
    failures.push(...Object.entries(ready).filter(([, s]) => s !== 200).map(([a, s]) => `${a} not ready afterwards (${s})`));
    failures.push(...crashed.map((a) => `${a} exited during the run`));
    if (crashed.length) console.log(`(the crashes' stack traces are in ${path.relative(ROOT, stack.logDir)}/<service>.log)`);
    if (groups.length) {
      console.log(`\n${tally.failures.length} failing cases in ${groups.length} kinds (each reproduced by its smallest variant found while the stack ran):`);
      for (const g of groups) {
        console.log(`\n- ${g.case.route}: ${g.problem} (${g.count}×)`);
        const minimal = g.minimal ?? g;
        console.log(`  ${curl(gateway, minimal.case)}`);
        console.log(`  → ${minimal.status} ${minimal.body}`);
      }
      failures.push(...groups.map((g) => `${g.case.route}: ${g.problem}`));
    }
    if (abort.signal.aborted) console.log(`\nINTERRUPTED after ${tally.total} of ${opts.cases} cases`);
    console.log(`\n${failures.length ? `FAILED: ${failures.length} problem(s)` : 'PASSED: no 5xx, every error problem+json, no internals or secrets leaked, every service ready'}`);
    return failures.length ? 1 : abort.signal.aborted ? 130 : 0;
  } finally {
    await shutdown();
  }
}

main().then(
  (code) => exitTool(code),
  (err) => {
    log(`fuzz: ${err?.stack ?? err}`);
    return exitTool(2);
  },
);
