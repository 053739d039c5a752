'use strict';
// The system a chaos scenario breaks: the six built services (dist/) on free ports, with a database, a Kafka topic
// namespace and a Redis key prefix of their own, supervised by the dev stack runner (tools/dev/lib/stack.cjs), which
// restarts a service that exits. `kill(app)` SIGKILLs one service and resolves once the supervisor's replacement is
// ready again; `unexpectedExits()` tells crashes the scenario did not cause. Shared by `npm run chaos` and the e2e test.
const path = require('node:path');
const { APPS, ROOT, Stack, freePorts, readEnvFile, runMigrations } = require('../../dev/lib/stack.cjs');

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function testing() {
  // The built test infrastructure (dist/ is there: the runner and the e2e tier build first).
  return require(path.join(ROOT, 'dist/libs/testing/src/index.js'));
}

class ChaosPlatform {
  /**
   * @param {{label: string, env?: Record<string,string>, log?: (m: string) => void, logDir?: string, signal?: AbortSignal}} options
   */
  static async start({ label, env: overrides = {}, log = () => undefined, logDir, signal }) {
    const { createTestDatabase, testInfra, uniqueKafkaNamespace } = testing();
    const infra = testInfra();
    const db = await createTestDatabase(`chaos${label}`);
    const namespace = uniqueKafkaNamespace(`chaos${label}`);
    const env = {
      ...process.env,
      ...readEnvFile(path.join(ROOT, '.env.example')),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      REDIS_URL: infra.redisUrl,
      REDIS_KEY_PREFIX: `${namespace}gw:`,
      SANDBOX_ENABLED: 'true',
      ...overrides,
    };
    const stack = new Stack({
      env,
      ports: await freePorts(APPS),
      logDir: logDir ?? path.join(ROOT, 'tmp', 'logs', 'chaos', label),
      // The supervisor brings a killed service back, as an orchestrator would (1 s, then doubling).
      restart: true,
      // Ctrl-C reaches only the runner, which stops the services once.
      detached: true,
      log: (m) => log(`[stack] ${m}`),
    });
    const platform = new ChaosPlatform(stack, db, namespace, env, infra);
    try {
      // Generous: on a busy machine eleven Node processes starting at once take their time.
      await runMigrations(env, { timeoutMs: 180_000 });
      await stack.start({ timeoutMs: 150_000, signal });
    } catch (err) {
      await platform.stop();
      throw err;
    }
    return platform;
  }

  constructor(stack, db, namespace, env, infra) {
    this.stack = stack;
    this.db = db;
    this.namespace = namespace;
    this.env = env;
    this.infra = infra;
    this.gateway = stack.url('gateway');
    this.sandbox = stack.url('whatsapp-sandbox');
    /** Kills this platform did on purpose, per service. */
    this.kills = {};
  }

  url(app) {
    return this.stack.url(app);
  }

  /**
   * SIGKILLs `app` (no chance to flush, commit or say goodbye) and resolves, with the seconds it took, once the
   * supervisor's new process answers `/health/ready` 200; rejects after `timeoutMs`.
   */
  async kill(app, { timeoutMs = 90_000, signal } = {}) {
    const service = this.stack.services.get(app);
    const child = service?.child;
    if (!child) throw new Error(`${app} is not running`);
    const killedAt = Date.now();
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    this.kills[app] = (this.kills[app] ?? 0) + 1;
    await gone;
    for (;;) {
      if (signal?.aborted) throw new Error('aborted');
      const current = service.child;
      if (current && current !== child && (await this.stack.probe(app)).ready) return (Date.now() - killedAt) / 1000;
      if (Date.now() - killedAt > timeoutMs) throw new Error(`${app} not ready again within ${timeoutMs / 1000} s of its kill`);
      await delay(200);
    }
  }

  /** Exits of each service that were not this platform's kills (crashes): `{app: count}`, only non-zero. */
  unexpectedExits() {
    const out = {};
    for (const app of APPS) {
      const n = (this.stack.services.get(app)?.exits ?? 0) - (this.kills[app] ?? 0);
      if (n > 0) out[app] = n;
    }
    return out;
  }

  /** Every service's readiness now: `{app: status or error code}`. */
  async readiness() {
    const entries = await Promise.all(APPS.map(async (app) => [app, (await this.stack.probe(app)).detail.split(' ').slice(0, 2).join(' ')]));
    return Object.fromEntries(entries);
  }

  /** A query on the run's database (each service its own schema: `sandbox`, `messaging`, …). */
  async query(sql, params = []) {
    if (!this.pg) {
      const { Client } = require('pg');
      this.pg = new Client({ connectionString: this.db.url });
      this.pg.on('error', () => undefined);
      await this.pg.connect();
    }
    return (await this.pg.query(sql, params)).rows;
  }

  /** Stops every service, drops the database and deletes the namespace's topics. Idempotent. */
  stop() {
    this.stopping ??= (async () => {
      await this.stack.stop();
      await this.pg?.end().catch(() => undefined);
      await deleteTopics(this.infra.kafkaBrokers, this.namespace);
      await this.db.drop().catch(() => undefined);
    })();
    return this.stopping;
  }
}

async function deleteTopics(brokers, namespace) {
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ clientId: 'chaos-admin', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(namespace));
    if (topics.length) await admin.deleteTopics({ topics });
  } catch {
    /* a chaos namespace's topics are harmless leftovers */
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

module.exports = { APPS, ROOT, ChaosPlatform, delay };
