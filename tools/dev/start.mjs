#!/usr/bin/env node
// `npm start`: the complete Parley system on this machine, on real Apache Kafka and PostgreSQL.
//
//   npm start                     install if needed, start Kafka, build, migrate, run every service
//   npm start -- --logs           also stream every service's log here, prefixed by its name
//   npm start -- --only a,b       run only some services (for working on one of them)
//
// Configuration: .env.example's defaults, then .env, then the environment. Ctrl-C stops everything this started
// (the Kafka broker only if this command started it) and leaves no process behind.
import { relative } from 'node:path';
import stack from './lib/stack.cjs';
import {
  ReportedError,
  build,
  checkInfrastructure,
  color,
  currentChild,
  ensureDependencies,
  ensureDocs,
  ensureKafka,
  ensureModels,
  formatMs,
  killTree,
  say,
  step,
  stopKafka,
} from './lib/runner.mjs';

const usage = `usage: npm start [-- --logs] [-- --only <service>[,<service>...]]
services: ${stack.APPS.join(', ')}`;

function parseArgs(argv) {
  const options = { logs: false, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--logs') options.logs = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      options.only = (value ?? '').split(',').filter(Boolean);
      const unknown = options.only.filter((app) => !stack.APPS.includes(app));
      if (unknown.length > 0 || options.only.length === 0) exitWithUsage(`unknown service: ${unknown.join(', ') || '(none given)'}`);
    } else if (arg === '--help' || arg === '-h') exitWithUsage();
    else exitWithUsage(`unknown option: ${arg}`);
  }
  return options;
}

function exitWithUsage(error) {
  if (error) process.stderr.write(`${error}\n`);
  process.stderr.write(`${usage}\n`);
  process.exit(error ? 2 : 0);
}

const options = parseArgs(process.argv.slice(2));
const apps = options.only ?? [...stack.APPS];
const { env, files } = stack.loadEnv();
const ports = { ...stack.DEFAULT_PORTS, gateway: Number(env.PORT || stack.DEFAULT_PORTS.gateway) };

// --- shutdown: the first signal stops everything gracefully, a second one kills the services at once -------------
let stopRequested = false;
let stopRequestedAt = 0;
let resolveStop;
const stopSignal = new Promise((resolve) => (resolveStop = resolve));
const aborter = new AbortController();
let services; // the Stack, once started
let brokerStart; // the startBroker() promise, once begun

function onSignal(sig) {
  if (stopRequested) {
    // npm forwards the terminal's Ctrl-C to us as well: the same key press arrives twice within milliseconds.
    if (Date.now() - stopRequestedAt < 1000) return;
    say(color.yellow(`\n${sig} again: killing the services now`));
    services?.killAll('SIGKILL');
    return;
  }
  stopRequested = true;
  stopRequestedAt = Date.now();
  say(color.yellow(`\n${sig} received: stopping (press Ctrl-C again to kill the services at once)...`));
  aborter.abort();
  killTree(currentChild());
  resolveStop(sig);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => onSignal(sig));

/** A step, unless a stop was asked for meanwhile. */
async function next(label, fn) {
  if (stopRequested) throw new ReportedError('stopped');
  const result = await step(label, fn);
  if (stopRequested) throw new ReportedError('stopped');
  return result;
}

async function cleanup() {
  if (services?.services.size) {
    const started = Date.now();
    await services.stop();
    say(`${color.green('✓')} services stopped ${color.dim(`(${formatMs(Date.now() - started)})`)}`);
  }
  const broker = brokerStart && (await brokerStart.catch(() => undefined));
  if (broker?.started) {
    const started = Date.now();
    await stopKafka();
    say(`${color.green('✓')} Kafka broker stopped ${color.dim(`(${formatMs(Date.now() - started)})`)}`);
  } else if (broker) say(color.dim('  the Kafka broker was already running before; it keeps running'));
}

// --- the service output on this terminal (--logs) ---------------------------------------------------------------
const width = Math.max(...apps.map((a) => a.length));
const levels = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const tints = [color.cyan, color.green, color.yellow, (t) => t, color.bold, color.dim];
function printLine(app, line) {
  let text = line;
  try {
    // Services log pino JSON; show level, context and message, which is what a person reads.
    const entry = JSON.parse(line);
    if (entry && typeof entry === 'object' && 'msg' in entry) {
      const level = levels[entry.level] ?? String(entry.level ?? '');
      text = `${level.padEnd(5)} ${entry.context ? `[${entry.context}] ` : ''}${entry.msg}${entry.err?.stack ? `\n${entry.err.stack}` : ''}`;
    }
  } catch {
    /* not JSON: as is */
  }
  const tint = tints[stack.APPS.indexOf(app) % tints.length];
  process.stdout.write(`${tint(app.padEnd(width))} | ${text}\n`);
}

async function optionalPage(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

async function printWelcome(startedAt) {
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  const sandbox = `http://127.0.0.1:${ports['whatsapp-sandbox']}`;
  const rows = [];
  if (apps.includes('gateway')) {
    rows.push(['Gateway (public API)', gateway]);
    if (await optionalPage(`${gateway}/docs`)) rows.push(['API reference', `${gateway}/docs`]);
    if (await optionalPage(`${gateway}/dashboard`)) rows.push(['Dashboard', `${gateway}/dashboard`]);
    if (await optionalPage(`${gateway}/guide/`)) rows.push(['Guide (these docs)', `${gateway}/guide`]);
  }
  if (apps.includes('whatsapp-sandbox')) rows.push(['WhatsApp sandbox', sandbox]);
  for (const app of apps) rows.push([`${app} health`, `${services.url(app)}/health/ready`]);
  rows.push(['Logs', `${relative(process.cwd(), services.logDir) || '.'}/<service>.log${options.logs ? '' : '   (npm start -- --logs streams them here)'}`]);
  const pad = Math.max(...rows.map(([k]) => k.length));

  say('');
  say(color.bold(`Parley is running (ready in ${formatMs(Date.now() - startedAt)}).`));
  say('');
  for (const [k, v] of rows) say(`  ${k.padEnd(pad)}  ${v}`);
  if (apps.includes('gateway')) {
    say('');
    say(color.bold('First steps') + color.dim(' (the Quickstart: docs/quickstart.md, or /guide/quickstart above):'));
    say(
      `  curl -s -X POST ${gateway}/api/v1/accounts -H 'content-type: application/json' \\\n` +
        `    -d '{"name":"Acme Bakery","email":"owner@acme.example","password":"correct horse battery"}'`,
    );
    say(color.dim('  then sign in to the dashboard with that email and password, or use the api_key of the answer as a bearer token.'));
  }
  say('');
  say(color.dim('Press Ctrl-C to stop everything.'));
}

async function main() {
  const startedAt = Date.now();
  say(color.bold(`Parley: starting ${apps.length === stack.APPS.length ? 'the complete system' : apps.join(', ')}`));
  say(color.dim(`  configuration: ${files.join(' + ') || 'built-in defaults'} + environment`));

  await next('dependencies', ensureDependencies);
  await next('infrastructure', () => checkInfrastructure(env));
  await next('embedding model', () => ensureModels(env));
  await next('Kafka', async () => {
    brokerStart = ensureKafka(env);
    const broker = await brokerStart;
    env.KAFKA_BROKERS = broker.brokers;
    return `${broker.brokers} (${broker.started ? 'started' : 'already running'})`;
  });
  await next('build', build);
  // The guide at /guide is for reading, not running: a page that does not build leaves the services to start.
  await next('docs', ensureDocs).catch((err) => {
    if (stopRequested) throw err;
    say(color.yellow('  the system starts without a fresh /guide'));
  });
  await next('database', async () => {
    const db = await stack.ensureDatabase(env.DATABASE_URL);
    const results = await stack.runMigrations(env, { apps });
    const migrated = results.filter((r) => !r.skipped).map((r) => r.app);
    return `${db.created ? 'created' : 'using'} "${db.name}"; migrated ${migrated.join(', ') || 'nothing'}`;
  });
  services = new stack.Stack({ env, ports, apps, detached: true, onLine: options.logs ? printLine : undefined, log: (m) => say(`${color.yellow('[supervisor]')} ${m}`) });
  await next(`services (${apps.length})`, async () => {
    await services.start({
      timeoutMs: 120_000,
      signal: aborter.signal,
      onReady: (app, ms) => say(`  ${color.green('✓')} ${app} ready on :${ports[app]} ${color.dim(`(${formatMs(ms)})`)}`),
    });
    return 'all ready';
  });
  await printWelcome(startedAt);
  await stopSignal;
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  if (!stopRequested) {
    if (!(err instanceof ReportedError)) say(color.red(String(err?.stack ?? err)));
    exitCode = 1;
  }
}
try {
  await cleanup();
} catch (err) {
  say(color.red(`cleanup failed: ${err?.message ?? err}`));
  exitCode = 1;
}
say(exitCode === 0 ? 'Stopped.' : color.red('Parley did not start; everything this command started has been stopped.'));
process.exit(exitCode);
