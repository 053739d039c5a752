'use strict';
// The stack as the load and robustness tools run it (bench, chaos, soak, fuzz): the six built services (dist/) on free
// ports, with a database, a Kafka topic namespace and a Redis key prefix of their own, plus the two things every tool
// then does: set up a tenant with its sandbox channel, and post signed Cloud API notifications as Meta would.
// Plain CommonJS like stack.cjs: the ESM tools, the CommonJS ones and jest all load it. Needs dist/ built.
const { createHmac } = require('node:crypto');
const path = require('node:path');
const { APPS, ROOT, Stack, freePorts, readEnvFile, runMigrations } = require('./stack.cjs');

/** A built library (CommonJS in dist/; the tools build first). */
function dist(lib) {
  return require(path.join(ROOT, 'dist/libs', lib, 'src/index.js'));
}

/** A JSON call to the platform's API: resolves the parsed body, rejects on a status of 400 or more. */
async function api(method, url, { token, json } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: json ? JSON.stringify(json) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

class Platform {
  /**
   * Starts the stack; resolves once every `/health/ready` answers 200 (`migrateMs`, `startMs` tell how long it took).
   * Without `infra` it runs on a new test database and the shared broker; with `infra.sandboxDatabaseUrl` the WhatsApp
   * sandbox (standing in for Meta) keeps its data there, so an outage of the platform's database is not the provider's.
   * Subclasses start as themselves (`ChaosPlatform.start(…)`).
   * @param {object} o
   * @param {string} o.name names the test database and the Kafka namespace
   * @param {string} o.logDir where <app>.log files go
   * @param {(m: string) => void} [o.log]
   * @param {Record<string,string>} [o.env] settings over the development defaults
   * @param {{databaseUrl?: string, kafkaBrokers?: string, sandboxDatabaseUrl?: string}} [o.infra]
   * @param {boolean} [o.restart] the supervisor restarts a service that exits (default true)
   * @param {boolean} [o.detached] each service in a process group of its own (default true)
   * @param {object} [o.nodeArgs] extra node flags per service
   * @param {number} [o.migrateTimeoutMs] @param {number} [o.readyTimeoutMs] (120 s) @param {AbortSignal} [o.signal]
   * @param {(app: string, ms: number) => void} [o.onReady] (default: a log line per service)
   */
  static async start(o) {
    const log = o.log ?? (() => undefined);
    const { createTestDatabase, testInfra, uniqueKafkaNamespace } = dist('testing');
    const shared = testInfra();
    const db = o.infra?.databaseUrl ? undefined : await createTestDatabase(o.name);
    const namespace = uniqueKafkaNamespace(o.name);
    const infra = { kafkaBrokers: o.infra?.kafkaBrokers ?? shared.kafkaBrokers, databaseUrl: o.infra?.databaseUrl ?? db.url };
    const env = {
      ...process.env,
      ...readEnvFile(path.join(ROOT, '.env.example')),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: infra.databaseUrl,
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      REDIS_URL: shared.redisUrl,
      // Each run its own quota counters in the shared Redis, and its own balance view and price book.
      REDIS_KEY_PREFIX: `${namespace}gw:`,
      BILLING_VIEW_PREFIX: `${namespace}billing:`,
      SANDBOX_ENABLED: 'true',
      ...o.env,
    };
    const common = { ports: await freePorts([...APPS, 'messaging-smtp', 'sandbox-smtp']), logDir: o.logDir, restart: o.restart ?? true, detached: o.detached ?? true, nodeArgs: o.nodeArgs, log: (m) => log(`[stack] ${m}`) };
    const outside = o.infra?.sandboxDatabaseUrl ? ['whatsapp-sandbox'] : [];
    const sandboxEnv = { ...env, DATABASE_URL: o.infra?.sandboxDatabaseUrl ?? infra.databaseUrl };
    const stacks = [new Stack({ ...common, env, apps: APPS.filter((a) => !outside.includes(a)) })];
    if (outside.length) stacks.push(new Stack({ ...common, env: sandboxEnv, apps: outside }));
    const platform = new this(stacks, db, namespace, env, { ...infra, sandboxDatabaseUrl: sandboxEnv.DATABASE_URL });
    try {
      const migrations = Date.now();
      const timeouts = o.migrateTimeoutMs ? { timeoutMs: o.migrateTimeoutMs } : {};
      await runMigrations(env, { apps: stacks[0].apps, ...timeouts });
      if (outside.length) await runMigrations(sandboxEnv, { apps: outside, ...timeouts });
      platform.migrateMs = Date.now() - migrations;
      const started = Date.now();
      const onReady = o.onReady ?? ((app, ms) => log(`  ${app} ready after ${(ms / 1000).toFixed(1)} s`));
      await Promise.all(stacks.map((s) => s.start({ timeoutMs: o.readyTimeoutMs ?? 120_000, signal: o.signal, onReady })));
      platform.startMs = Date.now() - started;
    } catch (err) {
      await platform.stop();
      throw err;
    }
    return platform;
  }

  constructor(stacks, db, namespace, env, infra) {
    this.stacks = stacks;
    /** The stack of the platform's own services (all six unless the sandbox runs apart). */
    this.stack = stacks[0];
    this.db = db;
    this.namespace = namespace;
    this.env = env;
    this.infra = infra;
    this.gateway = this.stack.url('gateway');
    this.sandbox = this.stack.url('whatsapp-sandbox');
  }

  url(app) {
    return this.stack.url(app);
  }

  /** Every service's supervisor record (child process, exits, …), sandbox included. */
  services() {
    return this.stacks.flatMap((stack) => [...stack.services.values()]);
  }

  /** A query on the platform's database (each service its own schema: `sandbox`, `messaging`, …). */
  async query(sql, params = []) {
    if (!this.pg) {
      const { Client } = require('pg');
      this.pg = new Client({ connectionString: this.infra.databaseUrl });
      this.pg.on('error', () => undefined);
      await this.pg.connect();
    }
    return (await this.pg.query(sql, params)).rows;
  }

  /** A kafkajs admin client on the platform's broker. */
  async kafkaAdmin() {
    if (!this.admin) {
      const { Kafka, logLevel } = require('kafkajs');
      this.admin = new Kafka({ clientId: 'tools-admin', brokers: this.infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await this.admin.connect();
    }
    return this.admin;
  }

  /**
   * Stops every service, deletes the namespace's topics (not with `deleteTopics: false`, for a private broker that goes
   * anyway) and drops the database it created. Idempotent.
   */
  stop({ deleteTopics = true } = {}) {
    this.stopping ??= (async () => {
      await Promise.all(this.stacks.map((s) => s.stop()));
      await this.pg?.end().catch(() => undefined);
      if (deleteTopics) {
        try {
          const admin = await this.kafkaAdmin();
          const topics = (await admin.listTopics()).filter((t) => t.startsWith(this.namespace));
          if (topics.length) await admin.deleteTopics({ topics });
        } catch {
          /* a test namespace's topics are harmless leftovers */
        }
      }
      await this.admin?.disconnect().catch(() => undefined);
      await this.db?.drop().catch(() => undefined);
    })();
    return this.stopping;
  }
}

/** Starts a platform (see Platform.start for the options). */
function startPlatform(options) {
  return Platform.start(options);
}

/** What a tenant on a paid plan is credited with by default: enough for a long run's sends at any plan's prices. */
const PAID_PLAN_CREDIT = '10000.00';

/**
 * A new account with its sandbox channel (every account gets one), and on request: `plan` (set with `adminToken`),
 * an `agent` (the PUT /api/v1/agents/<name> body) and a `webhook` endpoint (the POST /api/v1/webhooks body).
 * On a paid plan every send is paid and a wallet that cannot cover it refuses it (BILLING_ENFORCED, on by default):
 * the wallet is credited `credit` (default PAID_PLAN_CREDIT) by an operator's adjustment, as an operator would.
 * Resolves `{ tenantId, apiKey, account, channel, channels, webhook }` (`account`: the full sign-up answer).
 */
async function createTenantWithSandboxChannel(gateway, { name, plan, adminToken, agent, webhook, credit = plan && plan !== 'free' ? PAID_PLAN_CREDIT : undefined }) {
  const account = await api('POST', `${gateway}/api/v1/accounts`, { json: { name } });
  const token = account.api_key;
  if (plan) await api('PATCH', `${gateway}/admin/v1/tenants/${account.tenant_id}`, { token: adminToken, json: { plan } });
  if (credit) {
    await api('POST', `${gateway}/admin/v1/tenants/${account.tenant_id}/wallet/adjustments`, {
      token: adminToken,
      json: { amount: credit, reference: `credit-${account.tenant_id}`, description: 'test run credit' },
    });
  }
  if (agent) await api('PUT', `${gateway}/api/v1/agents/${agent.name}`, { token, json: agent });
  const endpoint = webhook ? await api('POST', `${gateway}/api/v1/webhooks`, { token, json: webhook }) : undefined;
  const channels = (await api('GET', `${gateway}/api/v1/channels?limit=100`, { token })).data;
  const channel = channels.find((c) => c.provider === 'sandbox');
  if (!channel) throw new Error(`the new tenant ${name} has no sandbox channel: ${JSON.stringify(channels)}`);
  return { tenantId: account.tenant_id, apiKey: token, account, channel, channels, webhook: endpoint };
}

const digits = (s) => String(s ?? '').replace(/\D/g, '');

/** The Cloud API notification (JSON text) of one customer's text message to `channel`'s number. */
function cloudNotification(channel, { from, id, text, customer = 'Customer' }) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: channel.waba_id ?? '0',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: digits(channel.phone_number), phone_number_id: channel.phone_number_id },
              contacts: [{ profile: { name: customer }, wa_id: digits(from) }],
              messages: [{ from: digits(from), id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
}

/** The `X-Hub-Signature-256` value Meta sends with `body`, signed with the app secret. */
function cloudApiSignature(body, appSecret) {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** A notification as Meta posts it to `POST /webhooks/whatsapp`: `{ body, headers }` (signature included). */
function signedCloudNotification(channel, message, appSecret) {
  const body = cloudNotification(channel, message);
  return { body, headers: { 'x-hub-signature-256': cloudApiSignature(body, appSecret) } };
}

module.exports = { APPS, ROOT, Platform, api, cloudApiSignature, cloudNotification, createTenantWithSandboxChannel, digits, dist, signedCloudNotification, startPlatform };
