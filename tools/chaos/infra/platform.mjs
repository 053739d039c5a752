// What the infrastructure-failure scenarios share: the built stack on free ports pointed at the infrastructure a
// scenario chose (a private broker, a private PostgreSQL cluster, or the shared ones with a namespace of its own),
// a sandbox tenant, a send load, signed inbound notifications, a webhook receiver, and reading what the sandbox got.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(import.meta.dirname, '../../..');
const { APPS, Stack, freePorts, readEnvFile, runMigrations } = require(path.join(ROOT, 'tools/dev/lib/stack.cjs'));

/** Resolves after `ms`, or at once when `signal` aborts. */
export const delay = (ms, signal) =>
  new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The built libraries (CommonJS in dist/; the runner builds it first). */
export function dist(lib) {
  return require(path.join(ROOT, 'dist/libs', lib, 'src/index.js'));
}

/** Polls `check` until it returns a truthy value or the deadline passes; resolves that value or undefined. */
export async function waitFor(check, { timeoutMs, intervalMs = 500, signal }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline || signal?.aborted) return undefined;
    await delay(intervalMs, signal);
  }
}

/** An HTTP call with a JSON body; resolves `{ status, body, ms }` (status 0 = no answer within `timeoutMs`). */
export async function call(method, url, { token, json, headers = {}, raw, timeoutMs = 30_000 } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(json || raw ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: raw ?? (json ? JSON.stringify(json) : undefined),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body, ms: performance.now() - started };
  } catch (err) {
    return { status: 0, body: String(err?.cause?.code ?? err?.name ?? err), ms: performance.now() - started };
  }
}

async function must(method, url, options) {
  const answer = await call(method, url, options);
  if (answer.status >= 400 || answer.status === 0) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
}

/**
 * The six services on free ports, logs in tmp/logs/chaos/<label>. `infra`: `{ databaseUrl, kafkaBrokers,
 * sandboxDatabaseUrl? }`; a Kafka namespace and Redis prefix of the run's own. With `sandboxDatabaseUrl`, the WhatsApp
 * sandbox (standing in for Meta, the outside world) keeps its data there, so a database outage of the platform is not
 * also an outage of the provider. The supervisor does NOT restart services: recovering on their own is what the
 * scenarios check, so an exit is reported, never hidden.
 */
export async function startPlatform({ label, infra, log, env: extra = {} }) {
  const { testInfra, uniqueName } = dist('testing');
  const namespace = `${uniqueName(`chaos${label}`)}.`;
  const env = {
    ...process.env,
    ...readEnvFile(path.join(ROOT, '.env.example')),
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: infra.databaseUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    REDIS_URL: testInfra().redisUrl,
    REDIS_KEY_PREFIX: `${namespace}gw:`,
    SANDBOX_ENABLED: 'true',
    // Status callbacks double the inbound traffic and are not what these scenarios measure.
    SANDBOX_STATUS_CALLBACKS: 'false',
    WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,5,5,10',
    ...extra,
  };
  const ports = await freePorts(APPS);
  const logDir = path.join(ROOT, 'tmp', 'logs', 'chaos', label);
  const common = { ports, logDir, restart: false, detached: true, log: (m) => log(`[stack] ${m}`) };
  const outside = infra.sandboxDatabaseUrl ? ['whatsapp-sandbox'] : [];
  const stacks = [new Stack({ ...common, env, apps: APPS.filter((a) => !outside.includes(a)) })];
  const sandboxEnv = { ...env, DATABASE_URL: infra.sandboxDatabaseUrl ?? infra.databaseUrl };
  if (outside.length) stacks.push(new Stack({ ...common, env: sandboxEnv, apps: outside }));
  const platform = new Platform(stacks, env, namespace, { ...infra, sandboxDatabaseUrl: sandboxEnv.DATABASE_URL });
  try {
    // Generous time-outs: the scenarios run beside others on a busy machine.
    await runMigrations(env, { apps: stacks[0].apps, timeoutMs: 180_000 });
    if (outside.length) await runMigrations(sandboxEnv, { apps: outside, timeoutMs: 180_000 });
    const onReady = (app, ms) => log(`  ${app} ready after ${(ms / 1000).toFixed(1)} s`);
    await Promise.all(stacks.map((s) => s.start({ timeoutMs: 180_000, onReady })));
  } catch (err) {
    await platform.stop();
    throw err;
  }
  return platform;
}

export class Platform {
  constructor(stacks, env, namespace, infra) {
    this.stacks = stacks;
    this.env = env;
    this.namespace = namespace;
    this.infra = infra;
    this.gateway = stacks[0].url('gateway');
    this.sandbox = stacks[0].url('whatsapp-sandbox');
  }

  /** Services that exited since the start (none may: recovering means without a restart). */
  exits() {
    return this.stacks.flatMap((stack) => [...stack.services.values()].filter((s) => s.exits > 0).map((s) => `${s.app} (${s.lastExit})`));
  }

  /** Whether every `/health/ready` answers 200 right now. */
  async allReady() {
    const probes = await Promise.all(this.stacks.flatMap((stack) => stack.apps.map((app) => stack.probe(app))));
    return probes.every((p) => p.ready);
  }

  /** A `pro` tenant (no daily quota) with its API key and its sandbox channel. */
  async tenant(name) {
    const account = await must('POST', `${this.gateway}/api/v1/accounts`, { json: { name } });
    await must('PATCH', `${this.gateway}/admin/v1/tenants/${account.tenant_id}`, { token: this.env.ADMIN_TOKEN, json: { plan: 'pro' } });
    const channels = await must('GET', `${this.gateway}/api/v1/channels`, { token: account.api_key });
    const channel = channels.data.find((c) => c.provider === 'sandbox');
    if (!channel) throw new Error(`the new tenant has no sandbox channel: ${JSON.stringify(channels)}`);
    return { tenantId: account.tenant_id, apiKey: account.api_key, channel };
  }

  /** Registers `url` for the tenant's `events`; resolves the webhook (with its secret). */
  webhook(tenant, url, events) {
    return must('POST', `${this.gateway}/api/v1/webhooks`, { token: tenant.apiKey, json: { url, events } });
  }

  send(tenant, to, text, timeoutMs) {
    return call('POST', `${this.gateway}/v1/send`, { token: tenant.apiKey, json: { channel: 'whatsapp', to, message: text }, timeoutMs });
  }

  /** A customer writing to the tenant's number: a signed Cloud API notification posted to the gateway. */
  inbound(tenant, from, wamid, text, timeoutMs) {
    const digits = (s) => s.replace(/\D/g, '');
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '0',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: digits(tenant.channel.phone_number), phone_number_id: tenant.channel.phone_number_id },
                contacts: [{ profile: { name: 'Chaos Customer' }, wa_id: digits(from) }],
                messages: [{ from: digits(from), id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', this.env.META_APP_SECRET).update(raw).digest('hex')}`;
    return call('POST', `${this.gateway}/webhooks/whatsapp`, { raw, headers: { 'x-hub-signature-256': signature }, timeoutMs });
  }

  /** Bodies of the texts the sandbox accepted (what customers received) that contain `marker`. */
  async delivered(marker) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: this.infra.sandboxDatabaseUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT body FROM sandbox.messages WHERE direction = 'outbound' AND body LIKE $1`, [`%${marker}%`]);
      return rows.map((r) => r.body);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** A kafkajs admin on the platform's broker. */
  async admin() {
    if (!this.kafkaAdmin) {
      const { Kafka, logLevel } = require('kafkajs');
      this.kafkaAdmin = new Kafka({ clientId: 'chaos-admin', brokers: this.infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await this.kafkaAdmin.connect();
    }
    return this.kafkaAdmin;
  }

  /** Stops the services and deletes the namespace's topics (left alone when the broker is private: it goes anyway). */
  async stop({ deleteTopics = true } = {}) {
    await Promise.all(this.stacks.map((s) => s.stop()));
    if (deleteTopics) {
      try {
        const admin = await this.admin();
        const topics = (await admin.listTopics()).filter((t) => t.startsWith(this.namespace));
        if (topics.length) await admin.deleteTopics({ topics });
      } catch {
        /* a chaos namespace's topics are harmless leftovers */
      }
    }
    await this.kafkaAdmin?.disconnect().catch(() => undefined);
  }
}

/** A tenant's webhook endpoint: answers 204 and keeps every delivery's body. */
export class Receiver {
  bodies = [];

  static async start() {
    const receiver = new Receiver();
    receiver.server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        receiver.bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${receiver.server.address().port}/hook`;
    return receiver;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Calls `fire(i)` `rate` times a second until `signal` aborts (or `until()` is true), without waiting for answers
 * (an open loop: a hanging request does not slow the offered rate). Resolves once every call has settled.
 */
export async function openLoop({ rate, fire, signal, until = () => false }) {
  const pending = new Set();
  const started = performance.now();
  for (let i = 0; !signal.aborted && !until(); i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await delay(wait, signal);
    if (signal.aborted || until()) break;
    const p = Promise.resolve(fire(i)).catch(() => undefined);
    pending.add(p);
    p.finally(() => pending.delete(p));
  }
  await Promise.all(pending);
}

/** A short random id for markers that tie a run's messages together. */
export const runId = () => randomBytes(4).toString('hex');

export const seconds = (ms) => Math.round(ms / 100) / 10;
