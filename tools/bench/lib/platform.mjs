// The system under test: the six built services on free ports, with a database and a Kafka namespace of their own
// (the tools' shared platform, tools/dev/lib/platform.cjs, on the machinery of `npm start` and the end-to-end tests),
// and what a benchmark asks of it: a tenant, sandbox numbers, process ids and memory, consumer lag.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { delay, memoryOf } from './measure.mjs';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(import.meta.dirname, '../../..');
const { APPS, Platform: ToolsPlatform, createTenantWithSandboxChannel, dist } = require(path.join(ROOT, 'tools/dev/lib/platform.cjs'));

export { APPS, dist };

/** Builds dist/ with the repo's swc build (incremental, well under a second when nothing changed). */
export function build() {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'tools/dev/swc-build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('the build failed');
  if (!existsSync(path.join(ROOT, 'dist/libs/testing/src/index.js'))) throw new Error('dist/ has no libs/testing after the build');
}

/** An HTTP call with a JSON body; resolves `{ status, body }`. */
/**
 * The bench tenants' agent: the customers of the inbound scenarios ask for the opening hours, which it answers from its
 * FAQ (BENCHMARKS.md: the deterministic responder answers). Without the FAQ every message would be a question it cannot
 * answer: a handoff to a person and a knowledge gap logged, a heavier path than the scenarios'.
 */
export async function putFaqAgent(platform, tenant) {
  await api('PUT', `${platform.gateway}/api/v1/agents/support`, {
    token: tenant.apiKey,
    json: {
      name: 'support',
      instruction: 'You answer questions of the bench customers.',
      greeting: 'Hello from the bench!',
      skills: ['faq_responder'],
      faqs: [{ question: 'What are your opening hours?', answer: 'We are open Monday to Friday, 8:00 to 18:00.' }],
    },
  });
}

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

export class Platform extends ToolsPlatform {
  /**
   * Starts the stack; `startMs` is from launching the processes to every `/health/ready` answering 200.
   * `profile`: services to run under --cpu-prof, writing to tmp/bench-profiles/ (their profile lands at stop).
   * `statusCallbacks`: the sandbox sends sent/delivered/read for every outbound message, as Meta does in production
   * (BENCHMARKS.md: on unless a scenario says otherwise, and its row then says so).
   */
  static start({ log, profile = [], statusCallbacks = true }) {
    const profileDir = path.join(ROOT, 'tmp', 'bench-profiles');
    const nodeArgs = Object.fromEntries(profile.map((app) => [app, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${app}.${Date.now()}.cpuprofile`]]));
    return super.start({
      name: 'bench',
      logDir: path.join(ROOT, 'tmp', 'logs', 'bench'),
      log,
      nodeArgs,
      // A service that exits ends the measurement rather than being restarted under it.
      restart: false,
      detached: false,
      // At `info`, as `npm start` and production run them: what a service logs per request or event is part of its cost.
      env: { SANDBOX_STATUS_CALLBACKS: String(statusCallbacks), LOG_LEVEL: 'info' },
    });
  }

  /** Process id of every service. */
  pids() {
    return Object.fromEntries(APPS.map((app) => [app, this.stack.services.get(app)?.child?.pid]).filter(([, pid]) => pid));
  }

  /** Current RSS of every service, MB. */
  rss() {
    return Object.fromEntries(Object.entries(this.pids()).map(([app, pid]) => [app, Math.round(memoryOf(pid)?.rss ?? 0)]));
  }

  /** A new account on the `pro` plan (no daily quota; every send paid, from an operator's credit), with its API key and its sandbox channel. */
  tenant(name) {
    return createTenantWithSandboxChannel(this.gateway, { name, plan: 'pro', adminToken: this.env.ADMIN_TOKEN });
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

  /** Messages not yet consumed by the services' consumer groups in this namespace. */
  async consumerLag() {
    const admin = await this.kafkaAdmin();
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
}
