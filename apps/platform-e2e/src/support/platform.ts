import { TEST_FETCH_MAX_WAIT_MS, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { basename, join } from 'node:path';
// The stack runner is the workspace tool behind `npm start` (tools/dev, plain CommonJS), not a library: the tests run
// the services exactly the way a developer does.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { APPS, ROOT, Stack, freePorts, readEnvFile, runMigrations, type AppName, type Env } from '../../../../tools/dev/lib/stack.cjs';
import settings from './e2e-settings.cjs';
import { LENDER_URL_VARIABLE } from './shared-stack-lender.cjs';

/** The whole built system, running for one test file (startPlatform) or lent to it by the run (sharedPlatform). */
export interface Platform {
  /** Base URL of the gateway (the public API). */
  gateway: string;
  /** Base URL of the WhatsApp sandbox. */
  sandbox: string;
  /** The run's database, for a test that must make time pass (a 24-hour window closing) where no API can. */
  databaseUrl: string;
  urls: Record<AppName, string>;
  /** Stops one service as a deploy would (SIGTERM; SIGKILL after 10 s) and resolves once it has exited. */
  stopService(app: AppName): Promise<void>;
  /** Kills one service as a crash would (SIGKILL: no shutdown hooks run) and resolves once it has exited. */
  killService(app: AppName): Promise<void>;
  /** Starts a stopped service again on its port; resolves once it answers `/health/ready`. */
  startService(app: AppName): Promise<void>;
  stop(): Promise<void>;
}

/** The running spec file's name (`whatsapp` for whatsapp.e2e-spec.ts), naming its stack's log folder. */
function specName(): string {
  const path = expect.getState().testPath;
  return path ? basename(path).replace(/\.e2e-spec\.ts$/, '') : 'unnamed';
}

/** The services' settings for an end-to-end run: `.env.example`, on the run's own database and Kafka namespace. */
export function platformEnv(db: TestDatabase, label: string): Env {
  const infra = testInfra();
  const namespace = uniqueKafkaNamespace(label);
  return {
    ...process.env,
    ...readEnvFile(join(ROOT, '.env.example')),
    ...settings,
    DATABASE_URL: db.url,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    // each spec stops the whole stack; kafkajs's 5 s idle fetch would hold every consumer's stop that long
    KAFKA_FETCH_MAX_WAIT_MS: TEST_FETCH_MAX_WAIT_MS,
    REDIS_URL: infra.redisUrl,
    // The run's own balance view and price book in the shared Redis (BILLING_ENFORCED is on): another stack's prices
    // or a test's price change never reach this one's send checks.
    BILLING_VIEW_PREFIX: `${namespace}billing:`,
  };
}

/**
 * Starts the six built services (dist/) as real processes, exactly as `npm start` runs them, but on ports the OS says
 * are free (a developer's running stack keeps its own), with a fresh database and a Kafka topic namespace of their own.
 * Service logs go to tmp/logs/e2e/<spec file>/<service>.log (each file's stack its own, so a failed file's logs are
 * still there after the run). A service that exits is not restarted: a crash fails the test.
 * `overrides` change settings for one spec (a slower template review, say); `apps` starts only those services (default:
 * all), for a spec that needs a few of them.
 */
export async function startPlatform(overrides: Env = {}, apps: readonly AppName[] = APPS): Promise<Platform> {
  const db: TestDatabase = await createTestDatabase('e2e');
  // The SMTP listener and sink too, so a stack beside a running one (or another e2e run) never clashes on 2525/2526.
  const ports = await freePorts([...APPS, 'messaging-smtp', 'sandbox-smtp']);
  const env = { ...platformEnv(db, 'e2e'), ...overrides };
  const stack = new Stack({
    env,
    ports,
    apps: [...apps],
    logDir: join(ROOT, 'tmp', 'logs', 'e2e', specName()),
    restart: false,
    log: (message) => process.stderr.write(`[platform-e2e] ${message}\n`),
  });
  try {
    await runMigrations(env);
    await stack.start({ timeoutMs: 90_000 });
  } catch (err) {
    await stack.stop();
    await db.drop();
    throw err;
  }
  const urls = Object.fromEntries(APPS.map((app) => [app, stack.url(app)])) as Record<AppName, string>;
  return {
    gateway: urls.gateway,
    sandbox: urls['whatsapp-sandbox'],
    databaseUrl: db.url,
    urls,
    async stopService(app) {
      // The supervisor does not restart it (restart: false); it logs the exit as unexpected, which here it is not.
      const child = stack.services.get(app)?.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error(`${app} is not running`);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
    async killService(app) {
      const child = stack.services.get(app)?.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error(`${app} is not running`);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async startService(app) {
      stack.launch(app);
      await pollUntil(async () => (await stack.probe(app)).ready, { timeoutMs: 90_000, intervalMs: 250, description: `${app} ready again` });
    },
    async stop() {
      await stack.stop();
      await db.drop();
    },
  };
}

/**
 * The stack this run shares among the specs that only need one (apps/platform-e2e/global-setup.mjs starts it on the
 * first ask): tenants of their own, nothing stopped, killed or configured. `stop()` gives it back (it stops with the
 * run); stopping, killing or starting one of its services is refused: a spec that does that starts its own.
 * Run outside the e2e config (no lender), it is a stack of the spec's own.
 */
export async function sharedPlatform(): Promise<Platform> {
  const lender = process.env[LENDER_URL_VARIABLE];
  if (!lender) return startPlatform();
  const res = await fetch(lender, { method: 'POST', signal: AbortSignal.timeout(240_000) });
  if (!res.ok) throw new Error(await res.text());
  const { urls, databaseUrl } = (await res.json()) as { urls: Record<AppName, string>; databaseUrl: string };
  const notYours = async (): Promise<never> => {
    throw new Error('the shared stack is not yours to stop or kill services of: start a stack of your own (startPlatform)');
  };
  return {
    gateway: urls.gateway,
    sandbox: urls['whatsapp-sandbox'],
    databaseUrl,
    urls,
    stopService: notYours,
    killService: notYours,
    startService: notYours,
    stop: async () => undefined,
  };
}
