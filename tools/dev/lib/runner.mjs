// What `npm start` and `npm test` share: progress lines with timings, installing dependencies, checking the local
// infrastructure (PostgreSQL, Redis, Kafka), and building. Only Node built-ins: this runs before the install.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import infrastructure from './infrastructure.cjs';
import stack from './stack.cjs';
import siteFreshness from '../../docs/lib/site-freshness.cjs';

const { withHint } = infrastructure;

export const root = stack.ROOT;

const tty = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
export const color = { green: paint(32), red: paint(31), yellow: paint(33), cyan: paint(36), dim: paint(2), bold: paint(1) };

export function say(line = '') {
  process.stdout.write(`${line}\n`);
}

export function formatMs(ms) {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An error whose message was already shown to the user with advice; callers print nothing more. */
export class ReportedError extends Error {}

/**
 * Runs one named step and prints its outcome with the time it took. `fn` may return a short detail for the line.
 * A failure prints the step's error (and `hint`, if the error carries one) and rethrows it as a ReportedError.
 */
export async function step(label, fn) {
  const started = Date.now();
  say(`${color.cyan('→')} ${label}...`);
  try {
    const detail = await fn();
    say(`${color.green('✓')} ${label}${detail ? `: ${detail}` : ''} ${color.dim(`(${formatMs(Date.now() - started)})`)}`);
    return detail;
  } catch (err) {
    say(`${color.red('✗')} ${label} failed ${color.dim(`(${formatMs(Date.now() - started)})`)}`);
    say(String(err?.message ?? err).replace(/^/gm, '    '));
    if (err?.hint) say(`  ${color.yellow('what to do:')} ${err.hint}`);
    throw new ReportedError(err?.message ?? String(err));
  }
}

/** The child process a step is running right now (the install, the build, a test tier), so a signal can end it. */
let current;
export function currentChild() {
  return current;
}

/**
 * Runs a command, output to this terminal (or captured with `capture`). Resolves `{ code, output }`. With `group`,
 * the child leads its own process group, so `killTree` can end everything it started (nx workers, jest, ...).
 * `onOutput` sees every chunk the command prints while it still goes to this terminal.
 */
export function run(command, args, { env = process.env, capture = false, group = false, onOutput } = {}) {
  return new Promise((resolve) => {
    const piped = capture || Boolean(onOutput);
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit'],
      detached: group,
    });
    current = child;
    let output = '';
    const forward = (to) => (d) => {
      if (capture) output += d;
      else to.write(d);
      onOutput?.(d);
    };
    child.stdout?.on('data', forward(process.stdout));
    child.stderr?.on('data', forward(process.stderr));
    child.once('error', (err) => {
      output += String(err);
      current = undefined;
      resolve({ code: -1, output });
    });
    child.once('close', (code, signal) => {
      current = undefined;
      resolve({ code: code ?? (signal ? 128 : 1), signal, output });
    });
  });
}

/** Sends `sig` to a child's whole process group (when it leads one) or to the child alone. */
export function killTree(child, sig = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
}

const mtime = (file) => statSync(file).mtimeMs;

/**
 * Installs the locked dependencies when node_modules is missing or older than package-lock.json (npm stamps
 * node_modules/.package-lock.json). `npm install`, not `npm ci`: npm 11 writes lock files without other platforms'
 * optional packages (swc's native binaries) and its own `npm ci` then refuses them as "not in sync"; `npm install`
 * installs the same locked versions.
 */
export async function ensureDependencies() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.package-lock.json');
  let reason;
  if (!existsSync(join(root, 'node_modules'))) reason = 'node_modules is missing';
  else if (!existsSync(stamp)) reason = 'node_modules was not installed by npm';
  else if (mtime(stamp) < mtime(lock)) reason = 'package-lock.json changed since the last install';
  if (!reason) return 'node_modules is up to date';
  say(`  ${reason}: installing the locked dependencies (a minute or two)...`);
  // `npm ci` installs exactly the lock and never rewrites it, so a fresh clone stays clean after the first command.
  // ONNXRUNTIME_NODE_INSTALL as in .npmrc (onnxruntime-node's CUDA download), should npm stop reading it from there
  const { code } = await run('npm', ['ci', '--no-audit', '--no-fund'], { env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  if (code !== 0) throw withHint(`npm ci failed (exit ${code})`, 'read the npm output above; check network access to the npm registry and that Node is 20.19+.');
  return `installed (${reason})`;
}

/** PostgreSQL and Redis must already run on this machine; say exactly what is wrong and how to fix it. */
export const checkInfrastructure = (env) => infrastructure.checkInfrastructure(env);

/**
 * Starts the local Kafka broker (tools/kafka) unless KAFKA_BROKERS points elsewhere, in which case that broker must
 * answer. Resolves `{ brokers, started }`; `started` means the caller owns the broker and stops it at the end.
 */
export async function ensureKafka(env) {
  return infrastructure.ensureKafka(env, { kafka: await import('../../kafka/kafka.mjs') });
}

/**
 * The agent's sentence-embedding model (tools/models): downloaded from Maven Central into .models/ on the first run,
 * its checksums verified on every run. `env` may name another folder (PARLEY_MODELS_DIR) or mirror (MAVEN_REPOSITORY_URL).
 */
export async function ensureModels(env) {
  const models = await import('../../models/models.mjs');
  try {
    const { dir, fetched } = await models.fetchModel({ env });
    return `${models.MODEL.name} ${fetched ? 'fetched into' : 'verified in'} ${relative(root, dir) || dir}`;
  } catch (err) {
    throw withHint(
      `the agent's embedding model could not be fetched: ${err.message}`,
      'the first run needs access to Maven Central (repo.maven.apache.org), or MAVEN_REPOSITORY_URL set to a mirror; `npm run models:fetch` tries again alone.',
    );
  }
}

/** Set while a tool runs on the local broker it started itself: `exitTool` stops it. */
let toolBroker;

/**
 * For the tools that run stacks of their own (bench, chaos, soak, fuzz), before anything else: PostgreSQL and Redis must
 * answer (the check of `npm start`), and a Kafka broker (`ensureKafka`, as `npm start` does): the local one is started
 * when none answers, and stopped again when the tool ends through `exitTool` (or a signal it does not handle itself);
 * one it did not start keeps running. When something is missing, one line per problem says what to do and the tool
 * ends at once with exit code 1. The settings checked are handed to the tool's stacks (KAFKA_BROKERS, REDIS_URL, and
 * TEST_POSTGRES_URL, the server its test databases are made on), so they run on exactly what was checked.
 * `redis: false` for a tool that runs without it.
 */
export async function infrastructureForTool(tool, { redis = true } = {}) {
  const { env } = stack.loadEnv();
  const postgres = new URL(env.DATABASE_URL);
  postgres.pathname = '/postgres';
  const infra = { DATABASE_URL: process.env.TEST_POSTGRES_URL ?? postgres.toString(), REDIS_URL: env.REDIS_URL };
  const kafka = await import('../../kafka/kafka.mjs');
  // Ctrl-C while the broker starts: it is stopped once it is up, then the tool ends (rather than leave it running).
  let interrupted;
  const onSignal = (sig) => {
    if (!interrupted) process.stderr.write(`${tool}: ${sig}: ending once the Kafka broker check is done\n`);
    interrupted = sig;
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, onSignal);
  let broker;
  try {
    await infrastructure.checkInfrastructure(infra, {
      postgresSetting: process.env.TEST_POSTGRES_URL ? 'TEST_POSTGRES_URL' : undefined,
      ...(redis ? {} : { redis: async () => undefined }),
    });
    broker = await infrastructure.ensureKafka(env, { kafka });
  } catch (err) {
    for (const line of infrastructure.toolLines(tool, err)) process.stderr.write(`${line}\n`);
    process.exit(interrupted ? 130 : 1);
  } finally {
    for (const sig of ['SIGINT', 'SIGTERM']) process.off(sig, onSignal);
  }
  if (broker.started) {
    toolBroker = { tool, kafka };
    process.stderr.write(`${tool}: no Kafka broker answered at ${broker.brokers}: started the local one; it stops again when ${tool} ends\n`);
    // An exit that does not go through exitTool (a second Ctrl-C "leaving now"): the broker is asked to stop, unwaited.
    process.once('exit', () => toolBroker?.kafka.stopBrokerNow());
    // A signal the tool does not handle itself (none set up yet) ends it at once, as it did before, and so the broker.
    for (const sig of ['SIGINT', 'SIGTERM']) {
      process.on(sig, () => {
        if (process.listenerCount(sig) > 1) return;
        process.stderr.write(`${tool}: ${sig}: ending; the Kafka broker it started is asked to stop\n`);
        process.exit(130);
      });
    }
  }
  if (interrupted) await exitTool(130);
  Object.assign(process.env, { KAFKA_BROKERS: broker.brokers, TEST_POSTGRES_URL: infra.DATABASE_URL, ...(redis ? { REDIS_URL: infra.REDIS_URL } : {}) });
  return broker;
}

/** Ends a tool with `code`; the Kafka broker `infrastructureForTool` started for it is stopped first. */
export async function exitTool(code) {
  const broker = toolBroker;
  // A second call while the broker stops (another Ctrl-C): leave now; the exit hook asks the broker to stop.
  if (broker && !broker.stopping) {
    broker.stopping = true;
    try {
      await broker.kafka.stopBroker();
      toolBroker = undefined;
      process.stderr.write(`${broker.tool}: stopped the Kafka broker it had started\n`);
    } catch (err) {
      process.stderr.write(`${broker.tool}: stopping the Kafka broker it had started failed: ${err?.message ?? err}\n`);
    }
  }
  process.exit(code);
}

export async function stopKafka() {
  const kafka = await import('../../kafka/kafka.mjs');
  await kafka.stopBroker();
}

/** Where the dashboard's browser tests find Chromium (apps/platform-e2e/src/dashboard/browser.ts reads the same). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The dashboard's end-to-end tests drive Debian's Chromium: installs the `chromium` package with apt-get when it is
 * missing (as root, or through passwordless sudo), printing apt's progress.
 */
export async function ensureChromium() {
  if (existsSync(chromiumPath)) return chromiumPath;
  const hint = `install Chromium yourself (on Debian/Ubuntu: \`sudo apt-get install chromium\`), or set CHROMIUM_PATH to its executable.`;
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
    throw withHint(`Chromium is not at ${chromiumPath} and this machine has no apt-get to install it.`, hint);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  say(`  Chromium is not at ${chromiumPath}: installing Debian's chromium package with apt-get (a minute or two)...`);
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const [command, ...rest] = [...sudo, 'apt-get', ...args];
    say(color.dim(`  $ ${[command, ...rest].join(' ')}`));
    const { code } = await run(command, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (code !== 0) throw withHint(`\`${[command, ...rest].join(' ')}\` failed (exit ${code}).`, hint);
  }
  if (!existsSync(chromiumPath)) throw withHint(`the chromium package installed, but ${chromiumPath} still does not exist.`, hint);
  return `installed (${chromiumPath})`;
}

/** Compiles every app and lib into dist/ (tools/dev/swc-build.mjs). */
export async function build() {
  const { code, output } = await run(process.execPath, [join(root, 'tools/dev/swc-build.mjs')], { capture: true });
  if (code !== 0) throw withHint(`the build failed (exit ${code}):\n${output.trim().split('\n').slice(-30).join('\n')}`, 'fix the compile error shown above.');
  return output.trim().replace(/^\[build\] /, '').replace(/^.*: (\d+ files)/, '$1');
}

/**
 * The docs site the gateway serves at /guide (tools/docs/build.mjs into dist/docs), built only when a page changed
 * since the last build (about 30 s). A failed build stops nothing: the caller says so and the system runs without it.
 */
export async function ensureDocs() {
  if (siteFreshness.siteIsFresh(root)) return 'up to date (dist/docs)';
  const { code, output } = await run(process.execPath, [join(root, 'tools/docs/build.mjs')], { capture: true });
  if (code !== 0) throw withHint(`the docs site did not build (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`, 'fix the page named above; `npm run docs` builds it again.');
  return 'built dist/docs';
}
