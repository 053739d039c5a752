'use strict';
// The system a chaos scenario breaks: the shared tools platform (tools/dev/lib/platform.cjs: the six built services on
// free ports, a database, Kafka namespace and Redis prefix of their own), logs in tmp/logs/chaos/<label>, plus what
// the scenarios do to it and ask of it: `kill(app)` SIGKILLs a service and waits for the supervisor's replacement,
// `unexpectedExits()` and `exits()` tell crashes apart, sends, signed inbound notifications and what the sandbox got.
// Shared by `npm run chaos` and the e2e test.
const path = require('node:path');
const { APPS, ROOT, Platform, api, createTenantWithSandboxChannel, signedCloudNotification } = require('../../dev/lib/platform.cjs');
const { call, delay } = require('./scenario-kit.cjs');

class ChaosPlatform extends Platform {
  /**
   * The supervisor brings an exited service back, as an orchestrator would (1 s, then doubling). Other options: see
   * Platform.start (`name` and `logDir` come from `label`).
   * @param {{label: string, logDir?: string} & Record<string, unknown>} options
   */
  static start({ label, logDir, ...options }) {
    // Generous time-outs: on a busy machine eleven Node processes starting at once take their time.
    return super.start({ name: `chaos${label}`, logDir: logDir ?? path.join(ROOT, 'tmp', 'logs', 'chaos', label), migrateTimeoutMs: 180_000, readyTimeoutMs: 180_000, ...options });
  }

  /**
   * For the infrastructure scenarios: no restarts (recovering on their own is what they check, so an exit is reported,
   * never hidden), no status callbacks (they double the inbound traffic and are not what is measured), quick retries.
   */
  static startUnsupervised({ env, ...options }) {
    return this.start({ ...options, restart: false, env: { SANDBOX_STATUS_CALLBACKS: 'false', WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,5,5,10', ...env } });
  }

  constructor(...args) {
    super(...args);
    /** Kills this platform did on purpose, per service. */
    this.kills = {};
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

  /** Services that exited since the start, as `app (how)`. */
  exits() {
    return this.services().filter((s) => s.exits > 0).map((s) => `${s.app} (${s.lastExit})`);
  }

  /** Every service's readiness now: `{app: status or error code}`. */
  async readiness() {
    const entries = await Promise.all(APPS.map(async (app) => [app, (await this.stack.probe(app)).detail.split(' ').slice(0, 2).join(' ')]));
    return Object.fromEntries(entries);
  }

  /** Whether every `/health/ready` answers 200 right now. */
  async allReady() {
    const probes = await Promise.all(this.stacks.flatMap((stack) => stack.apps.map((app) => stack.probe(app))));
    return probes.every((p) => p.ready);
  }

  /** A `pro` tenant (no daily quota; every send paid, from an operator's credit) with its API key and its sandbox channel. */
  tenant(name) {
    return createTenantWithSandboxChannel(this.gateway, { name, plan: 'pro', adminToken: this.env.ADMIN_TOKEN });
  }

  /** Registers `url` for the tenant's `events`; resolves the webhook (with its secret). */
  webhook(tenant, url, events) {
    return api('POST', `${this.gateway}/api/v1/webhooks`, { token: tenant.apiKey, json: { url, events } });
  }

  send(tenant, to, text, timeoutMs) {
    return call('POST', `${this.gateway}/v1/send`, { token: tenant.apiKey, json: { channel: 'whatsapp', to, message: text }, timeoutMs });
  }

  /** A customer writing to the tenant's number: a signed Cloud API notification posted to the gateway. */
  inbound(tenant, from, wamid, text, timeoutMs) {
    const { body, headers } = signedCloudNotification(tenant.channel, { from, id: wamid, text, customer: 'Chaos Customer' }, this.env.META_APP_SECRET);
    return call('POST', `${this.gateway}/webhooks/whatsapp`, { raw: body, headers, timeoutMs });
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
}

module.exports = { APPS, ROOT, ChaosPlatform };
