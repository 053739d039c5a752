'use strict';
// The whole Parley stack as supervised child processes, shared by `npm start` (tools/dev/start.mjs) and the
// end-to-end tests (apps/platform-e2e). Plain Node and CommonJS on purpose: the ESM dev scripts and jest both load it,
// and it must work before anything is installed (`pg` is required lazily, only by ensureDatabase).
//
// A service is `node dist/apps/<app>/src/main.js` with PORT and the cross-service URLs set from a port map; its output
// goes to <logDir>/<app>.log. `start()` waits until every `GET /health/ready` answers 200 (with a deadline), the
// supervisor restarts a service that exits on its own (with back-off), and `stop()` leaves no process behind.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');

const ROOT = path.resolve(__dirname, '../../..');

/** Every service, in the order they are listed. */
const APPS = Object.freeze(['gateway', 'agent-service', 'messaging-service', 'responder-service', 'webhook-service', 'crm-service', 'campaign-service', 'billing-service', 'whatsapp-sandbox']);

/** Default ports (CONTRACT.md §8). */
const DEFAULT_PORTS = Object.freeze({
  gateway: 3000,
  'agent-service': 3001,
  'messaging-service': 3002,
  'responder-service': 3003,
  'webhook-service': 3004,
  'crm-service': 3005,
  'campaign-service': 3006,
  'billing-service': 3007,
  'whatsapp-sandbox': 3100,
});

/**
 * Node flags of every service and migration. `--enable-source-maps` reads and parses the source map of every module
 * as it loads (about a fifth of a service's start-up CPU, eleven processes per start), so it is opt-in:
 * `PARLEY_SOURCE_MAPS=1` for stack traces in TypeScript terms; without it they point into dist/, which swc keeps close
 * to the source.
 */
/**
 * V8 flags of every service process, here and in docker/*.Dockerfile (docker/deployment.spec.ts checks they match).
 * Semi-spaces of 4 MB instead of V8's 16 MB: the young generation no longer grows to 48 MB, about 20 MB less RSS per
 * service idle and under load (issue 8: ≤ 120 MB idle, ≤ 200 MB under load), for more frequent, as cheap, scavenges.
 */
const SERVICE_NODE_FLAGS = Object.freeze(['--max-semi-space-size=4']);
const NODE_FLAGS = [...SERVICE_NODE_FLAGS, ...(process.env.PARLEY_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [])];

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Parses KEY=VALUE lines (comments, blank lines and `export ` ignored; one pair of surrounding quotes removed). */
function parseEnv(text) {
  const env = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2];
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    env[match[1]] = value;
  }
  return env;
}

function readEnvFile(file) {
  return fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8')) : {};
}

/**
 * The configuration `npm start` runs with: the development defaults of .env.example, then .env (if present),
 * then the real environment, which wins (so `PORT=4000 npm start` works as expected).
 */
function loadEnv(root = ROOT, processEnv = process.env) {
  const files = ['.env.example', '.env'].filter((f) => fs.existsSync(path.join(root, f)));
  const fromFiles = Object.assign({}, ...files.map((f) => readEnvFile(path.join(root, f))));
  return { env: { ...fromFiles, ...processEnv }, files };
}

/** The development default (the local sandbox) is replaced by the runner; a real Graph API URL is kept. */
function pointsAtLocalhost(url) {
  if (!url) return true;
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The environment of one service: the shared settings, its PORT, and where the other services are. */
function serviceEnv(baseEnv, ports, app) {
  const local = (name) => `http://127.0.0.1:${ports[name]}`;
  const env = { ...baseEnv, PORT: String(ports[app]), GATEWAY_URL: local('gateway'), SANDBOX_URL: local('whatsapp-sandbox') };
  if (pointsAtLocalhost(baseEnv.GRAPH_API_BASE_URL)) env.GRAPH_API_BASE_URL = local('whatsapp-sandbox');
  // The payment provider (issue 23): a local Stripe API is the sandbox's stand-in, wherever the runner put it.
  if (pointsAtLocalhost(baseEnv.STRIPE_API_BASE)) env.STRIPE_API_BASE = local('whatsapp-sandbox');
  // SMTP (CONTRACT.md §17): messaging-service's inbound listener and the sandbox's sink, when the map names their ports.
  if (ports['messaging-smtp']) Object.assign(env, { SMTP_PORT: String(ports['messaging-smtp']), MESSAGING_SMTP_URL: `smtp://127.0.0.1:${ports['messaging-smtp']}` });
  if (ports['sandbox-smtp']) Object.assign(env, { SANDBOX_SMTP_PORT: String(ports['sandbox-smtp']), SANDBOX_SMTP_URL: `smtp://127.0.0.1:${ports['sandbox-smtp']}` });
  // The platform's own mail (issue 32: invitations, password resets) goes to the sandbox's sink too, unless it is set
  // to a real server (or to nothing: empty sends no mail).
  const mail = baseEnv.MAIL_SMTP_URL;
  if (ports['sandbox-smtp'] && (mail === undefined || (mail !== '' && pointsAtLocalhost(mail)))) env.MAIL_SMTP_URL = `smtp://127.0.0.1:${ports['sandbox-smtp']}`;
  return env;
}

function distFile(root, app, file) {
  return path.join(root, 'dist', 'apps', app, 'src', file);
}

/** Ports the OS says are free right now, one per name (for tests that must not clash with a running stack). */
async function freePorts(names = APPS) {
  const servers = await Promise.all(
    names.map(
      () =>
        new Promise((resolve, reject) => {
          const server = net.createServer();
          server.unref();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = Object.fromEntries(names.map((name, i) => [name, servers[i].address().port]));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** Resolves true when something accepts TCP connections on host:port. */
function portInUse(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (inUse) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Creates the database named in `databaseUrl` when it does not exist yet. Resolves `{ created, name }`. */
async function ensureDatabase(databaseUrl) {
  const { Client } = require('pg');
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${databaseUrl}`);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount > 0) return { created: false, name };
    try {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } catch (err) {
      if (err && err.code === '42P04') return { created: false, name }; // created meanwhile by someone else
      throw err;
    }
    return { created: true, name };
  } finally {
    await admin.end();
  }
}

/**
 * Runs `dist/apps/<app>/src/migrate.js` of every app (in parallel: each owns its schema). An app without a
 * migrate.js (nothing to store) is reported as skipped. Rejects with the output of the migrations that failed.
 */
async function runMigrations(env, { apps = APPS, root = ROOT, timeoutMs = 60_000 } = {}) {
  const results = await Promise.all(
    apps.map(async (app) => {
      const file = distFile(root, app, 'migrate.js');
      if (!fs.existsSync(file)) return { app, skipped: true, ok: true, output: '' };
      const started = Date.now();
      const child = spawn(process.execPath, [...NODE_FLAGS, file], {
        cwd: root,
        env: serviceEnv(env, { ...DEFAULT_PORTS }, app),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const timer = setTimeout(() => {
        output += `\n(killed: no result within ${timeoutMs / 1000} s)`;
        child.kill('SIGKILL');
      }, timeoutMs);
      const code = await new Promise((resolve) => {
        child.once('error', (err) => {
          output += String(err);
          resolve(-1);
        });
        child.once('close', resolve);
      });
      clearTimeout(timer);
      return { app, skipped: false, ok: code === 0, output: output.trim(), ms: Date.now() - started };
    }),
  );
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    const details = failed.map((r) => `--- ${r.app}:\n${r.output.split('\n').slice(-20).join('\n')}`).join('\n');
    throw new Error(`migrations failed for ${failed.map((r) => r.app).join(', ')}\n${details}`);
  }
  return results;
}

function tailFile(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Supervised child processes for (a subset of) the services. */
class Stack {
  /**
   * @param {object} options
   * @param {Record<string,string|undefined>} options.env shared environment of every service
   * @param {Partial<Record<string,number>>} [options.ports] port map (defaults: DEFAULT_PORTS)
   * @param {string[]} [options.apps] which services (default: all)
   * @param {string} [options.logDir] where <app>.log files go (default: tmp/logs)
   * @param {boolean} [options.restart] restart a service that exits unexpectedly (default true)
   * @param {boolean} [options.detached] each service in a process group of its own (default false): a terminal's
   *   Ctrl-C then reaches only the owner, whose stop() shuts the services down once, gracefully. Without it, a signal
   *   to the owner's process group (a test runner's time-out) reaches the services too.
   * @param {(app: string, line: string) => void} [options.onLine] every output line of every service
   * @param {(message: string) => void} [options.log] the supervisor's own messages
   * @param {Partial<Record<string,string[]>>} [options.nodeArgs] extra node flags per service (the benchmarks' --cpu-prof)
   */
  constructor(options) {
    this.root = options.root ?? ROOT;
    this.env = options.env;
    this.apps = [...(options.apps ?? APPS)];
    this.ports = { ...DEFAULT_PORTS, ...(options.ports ?? {}) };
    this.logDir = options.logDir ?? path.join(this.root, 'tmp', 'logs');
    this.restart = options.restart ?? true;
    this.detached = options.detached ?? false;
    this.onLine = options.onLine;
    this.nodeArgs = options.nodeArgs ?? {};
    this.log = options.log ?? ((message) => process.stderr.write(`[stack] ${message}\n`));
    this.stopping = false;
    /** @type {Map<string, {app: string, child?: import('node:child_process').ChildProcess, out?: fs.WriteStream, startedAt: number, backoff: number, restarts: number, exits: number, ready: boolean, lastExit?: string, timer?: NodeJS.Timeout}>} */
    this.services = new Map();
    // Last resort if the owning process dies without stop(): never leave orphans behind.
    this.killOnExit = () => this.killAll('SIGKILL');
    process.once('exit', this.killOnExit);
  }

  url(app) {
    return `http://127.0.0.1:${this.ports[app]}`;
  }

  urls() {
    return Object.fromEntries(this.apps.map((app) => [app, this.url(app)]));
  }

  logFile(app) {
    return path.join(this.logDir, `${app}.log`);
  }

  /** Launches every service and resolves once all are ready; see waitReady for the options. */
  async start(options = {}) {
    const missing = this.apps.filter((app) => !fs.existsSync(distFile(this.root, app, 'main.js')));
    if (missing.length > 0) {
      throw new Error(`not built: ${missing.map((a) => path.relative(this.root, distFile(this.root, a, 'main.js'))).join(', ')} (run node tools/dev/swc-build.mjs)`);
    }
    const busy = [];
    for (const app of this.apps) if (await portInUse(this.ports[app])) busy.push(`${this.ports[app]} (${app})`);
    if (busy.length > 0) {
      throw new Error(`port ${busy.join(', ')} already in use: is another \`npm start\` running? Stop it, or free the port.`);
    }
    fs.mkdirSync(this.logDir, { recursive: true });
    for (const app of this.apps) this.launch(app, true);
    await this.waitReady(options);
  }

  launch(app, fresh = false) {
    let service = this.services.get(app);
    if (!service) {
      service = { app, startedAt: 0, backoff: 0, restarts: 0, exits: 0, ready: false };
      this.services.set(app, service);
    }
    service.out?.end();
    service.out = fs.createWriteStream(this.logFile(app), { flags: fresh ? 'w' : 'a' });
    service.out.on('error', (err) => this.log(`${app}: cannot write its log: ${err.message}`));
    service.out.write(`--- ${new Date().toISOString()} starting ${app} on port ${this.ports[app]} ---\n`);
    service.startedAt = Date.now();
    const child = spawn(process.execPath, [...(this.nodeArgs[app] ?? []), ...NODE_FLAGS, distFile(this.root, app, 'main.js')], {
      cwd: this.root,
      // stdin is the service's lifeline (libs/service-kit lifecycle/shutdown.ts): it closes when this process dies,
      // however it dies, and the service then stops on its own; detached services are out of reach of any other signal
      env: { ...serviceEnv(this.env, this.ports, app), PARLEY_LIFELINE: 'stdin' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: this.detached,
    });
    service.child = child;
    const out = service.out;
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        // Output can trail the exit event; the log of a stopped (or restarted) process is closed by then.
        if (!out.writableEnded) out.write(`${line}\n`);
        this.onLine?.(app, line);
      });
    }
    child.once('error', (err) => this.log(`${app}: could not start: ${err.message}`));
    child.once('exit', (code, signal) => this.onExit(service, child, code, signal));
  }

  onExit(service, child, code, signal) {
    if (service.child !== child) return;
    service.child = undefined;
    service.exits++;
    service.lastExit = signal ? `signal ${signal}` : `exit code ${code}`;
    if (this.stopping) return;
    const log = path.relative(process.cwd(), this.logFile(service.app));
    if (!this.restart) {
      this.log(`${service.app} exited unexpectedly (${service.lastExit}); see ${log}`);
      return;
    }
    // A service that ran for a minute was healthy: start the back-off over.
    if (Date.now() - service.startedAt > 60_000) service.backoff = 0;
    const wait = Math.min(1000 * 2 ** service.backoff, 30_000);
    service.backoff++;
    service.restarts++;
    this.log(`${service.app} exited unexpectedly (${service.lastExit}); restarting it in ${wait / 1000} s (restart #${service.restarts}); see ${log}`);
    service.timer = setTimeout(() => {
      service.timer = undefined;
      if (!this.stopping) this.launch(service.app);
    }, wait);
  }

  /** One readiness probe: `{ ready, detail }`. */
  async probe(app) {
    try {
      const res = await fetch(`${this.url(app)}/health/ready`, { signal: AbortSignal.timeout(3000) });
      const body = await res.text();
      return { ready: res.status === 200, detail: `HTTP ${res.status} ${body.slice(0, 300)}` };
    } catch (err) {
      return { ready: false, detail: err?.cause?.code ?? err?.message ?? String(err) };
    }
  }

  /**
   * Polls every `GET /health/ready` until all answer 200. Fails at the deadline, as soon as a service crashes three
   * times before its first ready answer (or once, without restarts), or when `signal` aborts.
   * @param {{timeoutMs?: number, signal?: AbortSignal, onReady?: (app: string, ms: number) => void}} options
   */
  async waitReady({ timeoutMs = 120_000, signal, onReady } = {}) {
    const started = Date.now();
    const pending = new Set(this.apps);
    const last = {};
    for (;;) {
      await Promise.all(
        [...pending].map(async (app) => {
          const result = await this.probe(app);
          last[app] = result.detail;
          if (result.ready) {
            pending.delete(app);
            this.services.get(app).ready = true;
            onReady?.(app, Date.now() - started);
          }
        }),
      );
      if (pending.size === 0) return;
      if (signal?.aborted) throw new Error('aborted');
      for (const app of pending) {
        const service = this.services.get(app);
        if (service.exits >= (this.restart ? 3 : 1)) {
          throw new Error(`${app} keeps exiting during start-up (${service.lastExit}); last lines of ${this.logFile(app)}:\n${tailFile(this.logFile(app))}`);
        }
      }
      if (Date.now() - started > timeoutMs) {
        const details = [...pending].map((app) => `--- ${app}: ${last[app]}\n${tailFile(this.logFile(app), 15)}`).join('\n');
        throw new Error(`not ready within ${timeoutMs / 1000} s: ${[...pending].join(', ')}\n${details}`);
      }
      await delay(250);
    }
  }

  killAll(sig) {
    for (const service of this.services.values()) {
      if (service.child && service.child.exitCode === null && service.child.signalCode === null) {
        try {
          service.child.kill(sig);
        } catch {
          /* already gone */
        }
      }
    }
  }

  /** SIGTERM to every service, up to `graceMs` for them to finish, then SIGKILL for the rest. Idempotent. */
  async stop({ graceMs = 10_000 } = {}) {
    this.stopping = true;
    const running = [];
    for (const service of this.services.values()) {
      clearTimeout(service.timer);
      const child = service.child;
      if (child && child.exitCode === null && child.signalCode === null) running.push({ service, child, exited: exited(child) });
    }
    for (const { child } of running) child.kill('SIGTERM');
    let timer;
    await Promise.race([Promise.all(running.map((r) => r.exited)), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const stragglers = running.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    for (const { service, child } of stragglers) {
      this.log(`${service.app} did not stop within ${graceMs / 1000} s; killing it`);
      child.kill('SIGKILL');
    }
    await Promise.all(stragglers.map((r) => r.exited));
    await Promise.all([...this.services.values()].map((s) => new Promise((resolve) => (s.out ? s.out.end(resolve) : resolve()))));
    process.removeListener('exit', this.killOnExit);
  }
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

module.exports = { ROOT, APPS, DEFAULT_PORTS, SERVICE_NODE_FLAGS, parseEnv, readEnvFile, loadEnv, serviceEnv, freePorts, portInUse, ensureDatabase, runMigrations, Stack };
