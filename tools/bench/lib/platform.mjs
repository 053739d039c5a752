// The system under test: the six built services on free ports, with a database and a Kafka namespace of their own
// (the same machinery as `npm start` and the end-to-end tests), and the API calls that set up a benchmark tenant.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { delay, memoryOf } from './measure.mjs';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(import.meta.dirname, '../../..');
const { APPS, Stack, freePorts, readEnvFile, runMigrations } = require(path.join(ROOT, 'tools/dev/lib/stack.cjs'));

export { APPS };

/** Builds dist/ with the repo's swc build (incremental, well under a second when nothing changed). */
export function build() {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'tools/dev/swc-build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('the build failed');
  if (!existsSync(path.join(ROOT, 'dist/libs/testing/src/index.js'))) throw new Error('dist/ has no libs/testing after the build');
}

/** The built libraries the bench uses (CommonJS in dist/). */
export function dist(lib) {
  return require(path.join(ROOT, 'dist/libs', lib, 'src/index.js'));
}

/** An HTTP call with a JSON body; resolves `{ status, body }`. */
export async function api(method, url, { token, json, headers = {} } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: json ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (res.status >= 400) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, body };
}

export class Platform {
  /** Starts the stack; `startMs` is from launching the processes to every `/health/ready` answering 200. */
  /** `profile`: services to run under --cpu-prof, writing to tmp/bench-profiles/ (their profile lands at stop). */
  static async start({ log, profile = [] }) {
    const { createTestDatabase, testInfra, uniqueKafkaNamespace } = dist('testing');
    const infra = testInfra();
    const db = await createTestDatabase('bench');
    const namespace = uniqueKafkaNamespace('bench');
    const ports = await freePorts(APPS);
    const env = {
      ...process.env,
      ...readEnvFile(path.join(ROOT, '.env.example')),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      REDIS_URL: infra.redisUrl,
      // Each run its own quota counters in the shared Redis.
      REDIS_KEY_PREFIX: `${namespace}gw:`,
      SANDBOX_ENABLED: 'true',
      // Status callbacks off (BENCHMARKS.md: they would double the inbound traffic of every outbound message).
      SANDBOX_STATUS_CALLBACKS: 'false',
    };
    const profileDir = path.join(ROOT, 'tmp', 'bench-profiles');
    const nodeArgs = Object.fromEntries(profile.map((app) => [app, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${app}.${Date.now()}.cpuprofile`]]));
    const stack = new Stack({ env, ports, nodeArgs, logDir: path.join(ROOT, 'tmp', 'logs', 'bench'), restart: false, log: (m) => log(`[stack] ${m}`) });
    const platform = new Platform(stack, db, namespace, env, infra);
    try {
      const migrationsStarted = Date.now();
      await runMigrations(env);
      platform.migrateMs = Date.now() - migrationsStarted;
      const started = Date.now();
      await stack.start({ timeoutMs: 120_000, onReady: (app, ms) => log(`  ${app} ready after ${(ms / 1000).toFixed(1)} s`) });
      platform.startMs = Date.now() - started;
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
  }

  /** Process id of every service. */
  pids() {
    return Object.fromEntries(APPS.map((app) => [app, this.stack.services.get(app)?.child?.pid]).filter(([, pid]) => pid));
  }

  /** Current RSS of every service, MB. */
  rss() {
    return Object.fromEntries(Object.entries(this.pids()).map(([app, pid]) => [app, Math.round(memoryOf(pid)?.rss ?? 0)]));
  }

  /** A new account on the `pro` plan (no daily quota), with its API key and its sandbox channel. */
  async tenant(name) {
    const account = (await api('POST', `${this.gateway}/api/v1/accounts`, { json: { name } })).body;
    await api('PATCH', `${this.gateway}/admin/v1/tenants/${account.tenant_id}`, { token: this.env.ADMIN_TOKEN, json: { plan: 'pro' } });
    return { tenantId: account.tenant_id, apiKey: account.api_key };
  }

  /** The tenant's channels, after adding sandbox numbers until it has `count`. */
  async sandboxChannels(tenant, count) {
    const list = async () => {
      const all = [];
      let cursor = null;
      do {
        const page = (await api('GET', `${this.gateway}/api/v1/channels?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: tenant.apiKey })).body;
        all.push(...page.data);
        cursor = page.next_cursor ?? null;
      } while (cursor);
      return all;
    };
    const have = (await list()).length;
    for (let i = have; i < count; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, () => api('POST', `${this.gateway}/api/v1/channels/whatsapp`, { token: tenant.apiKey, json: { provider: 'sandbox' } })),
      );
    }
    return list();
  }

  /** A Kafka admin client for this run's namespace (kafkajs, as the services use it). */
  async admin() {
    if (!this.kafkaAdmin) {
      const { Kafka, logLevel } = require('kafkajs');
      this.kafkaAdmin = new Kafka({ clientId: 'bench-admin', brokers: this.infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await this.kafkaAdmin.connect();
    }
    return this.kafkaAdmin;
  }

  /** Messages not yet consumed by the services' consumer groups in this namespace. */
  async consumerLag() {
    const admin = await this.admin();
    const ours = (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith(this.namespace));
    // Only groups with members: a closed client's group keeps its offsets but will never consume again.
    const active = ours.length ? (await admin.describeGroups(ours)).groups.filter((g) => g.members.length > 0).map((g) => g.groupId) : [];
    let lag = 0;
    for (const groupId of active) {
      for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
        const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
        for (const p of partitions) {
          const committed = Number(p.offset);
          lag += Math.max(0, (ends.get(p.partition) ?? 0) - (committed < 0 ? 0 : committed));
        }
      }
    }
    return lag;
  }

  /** Waits (up to `timeoutMs`) for every consumer group to catch up; resolves the lag left. */
  async drain(timeoutMs, log) {
    const deadline = Date.now() + timeoutMs;
    let lag = await this.consumerLag();
    while (lag > 0 && Date.now() < deadline) {
      log(`  draining: consumer lag ${lag}`);
      await delay(2000);
      lag = await this.consumerLag();
    }
    return lag;
  }

  /** A query on the run's database (the sandbox's schema is `sandbox`). */
  async query(sql, params = []) {
    if (!this.pg) {
      const { Client } = require('pg');
      this.pg = new Client({ connectionString: this.db.url });
      await this.pg.connect();
    }
    return (await this.pg.query(sql, params)).rows;
  }

  /** Stops every service, drops the database and deletes the namespace's topics. */
  async stop() {
    await this.stack.stop();
    await this.pg?.end().catch(() => undefined);
    try {
      const admin = await this.admin();
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(this.namespace));
      if (topics.length) await admin.deleteTopics({ topics });
    } catch {
      /* the topics of a test namespace are harmless leftovers */
    }
    await this.kafkaAdmin?.disconnect().catch(() => undefined);
    await this.db.drop().catch(() => undefined);
  }
}
