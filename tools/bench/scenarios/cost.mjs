// Scenario 5, cost per message (BENCHMARKS.md): what one outbound message costs the machine. First the idle stack
// (no traffic) for a while: the machine's busy CPU from /proc/stat and each process's own from /proc/<pid>/stat. Then
// `POST /v1/send` at a fixed rate with the sandbox's status callbacks on (sent, delivered, read for every message, as
// Meta sends them), drained until every message reads `read` and every consumer group has caught up. The busy CPU of
// that window minus the idle rate over the same time, divided by the messages, is the cost per message: machine-wide,
// and per process (each service, Kafka, PostgreSQL, Redis). The sandbox (it plays Meta) and the load generator (this
// process) are measured apart and subtracted from "ours".
//
// `cost-inbound` measures the other half of issue 33's point 1 the same way: one inbound message with its reply. Signed
// Cloud API notifications posted to the gateway at a fixed rate (a customer's question the agent answers from an FAQ),
// drained until the tenant's webhook holds every `message.received` and every reply reads `read`.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startCeiling } from '../lib/ceiling.mjs';
import { CpuSnapshot, infrastructurePids } from '../lib/cpu.mjs';
import { Latencies, RssSampler, delay, openLoop, progress, round } from '../lib/measure.mjs';
import { PgActivitySampler } from '../lib/pg-activity.mjs';
import { Receiver } from '../lib/receiver.mjs';
import { signedCloudNotification } from '../../dev/lib/platform.cjs';
import { api, putFaqAgent } from '../lib/platform.mjs';

const CUSTOMERS = 10_000;
/**
 * The customers who write in (cost-inbound): few enough that the warm-up makes every one known, so the run measures an
 * ordinary message of a conversation under way, not a first contact (a new contact, conversation and name).
 */
const RETURNING_CUSTOMERS = 50;
const WARM_UP = { rate: 20, seconds: 3 };
const DRAIN_TIMEOUT_MS = 120_000;
const POST_TIMEOUT_MS = 10_000;
const SANDBOX = 'whatsapp-sandbox';
/** The sandbox's own PostgreSQL connections (its pool names itself by its schema): it plays Meta, so not ours. */
const SANDBOX_PG = "sandbox's postgres backends";
const LOAD = 'load generator';
/** An idle baseline busier than this (CPU ms per second, i.e. 1.2 cores) leaves no room to read a message's cost. */
const BUSY_MACHINE_MS_PER_S = 1200;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** POST /v1/send; resolves the status code (null on a network error or time-out). */
function send(url, apiKey, i) {
  const body = JSON.stringify({ channel: 'whatsapp', to: `+49151${String(20_000_000 + (i % CUSTOMERS))}`, message: `cost ${i}` });
  return post(url, body, { authorization: `Bearer ${apiKey}` });
}

/** POSTs a JSON body; resolves the status code (null on a network error or time-out). */
function post(url, body, headers) {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/**
 * PostgreSQL statements and transactions each service has sent so far (its `db_statements_total` and
 * `db_transactions_total` on /metrics, service-kit's count), and the server's transactions on the run's database.
 * Counts, unlike CPU time, do not move with the machine's other load.
 */
async function statementCounts(platform, database) {
  const counts = {};
  await Promise.all(
    Object.keys(platform.pids()).map(async (app) => {
      const page = await fetch(`${platform.url(app)}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) => r.text(), () => '');
      const value = (name) => Number(page.match(new RegExp(`^${name} (\\d+)$`, 'm'))?.[1] ?? NaN);
      counts[app] = { statements: value('db_statements_total'), transactions: value('db_transactions_total'), kinds: statementKinds(page), kafka: kafkaCounts(page) };
    }),
  );
  const [server] = await platform.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [database]);
  return { services: counts, server: Number(server.n) };
}

/** A service's statements so far by kind (service-kit's `db_statements_by_kind_total`): `{ "UPDATE messages": n }`. */
function statementKinds(page) {
  return Object.fromEntries([...page.matchAll(/^db_statements_by_kind_total\{kind="([^"]+)"\} (\d+)$/gm)].map(([, kind, n]) => [kind, Number(n)]));
}

/**
 * Per message, over idle, the statements of each kind each service sent, most first (those under 0.05 left out):
 * `[["messaging-service", "UPDATE messages", 0.98], ...]`.
 */
function statementKindsPerMessage(idle, window, n) {
  const rows = [];
  for (const app of Object.keys(window.end.services)) {
    const at = (from, kind) => from.services[app]?.kinds?.[kind] ?? 0;
    for (const kind of new Set([...Object.keys(window.end.services[app]?.kinds ?? {}), ...Object.keys(idle.end.services[app]?.kinds ?? {})])) {
      const idleRate = (at(idle.end, kind) - at(idle.start, kind)) / idle.seconds;
      const perMessage = (at(window.end, kind) - at(window.start, kind) - idleRate * window.seconds) / n;
      if (perMessage >= 0.05) rows.push([app, kind, perMessage]);
    }
  }
  return rows.sort((a, b) => b[2] - a[2]);
}

/**
 * What a service asked of Kafka so far, from its /metrics (libs/kafka's kafka-metrics.ts): requests by API and records
 * its consumers fetched by topic, and of those the ones skipped unread (a routing header said they were not theirs), each
 * as `{ "requests Fetch": n, "records message.status": n, "skipped message.status": n }`.
 */
function kafkaCounts(page) {
  const counts = {};
  const kinds = { requests: 'requests', records_consumed: 'records', records_skipped: 'skipped' };
  for (const [, metric, label, value] of page.matchAll(/^kafka_(requests|records_consumed|records_skipped)_total\{(?:api|topic)="([^"]+)"\} (\d+)$/gm)) {
    counts[`${kinds[metric]} ${label}`] = Number(value);
  }
  return counts;
}

/**
 * Per message, over idle, what each service asked of Kafka: `{ app: { requests: total, records: total, detail: {
 * "requests Fetch": n, ... } } }`, the rows under 0.05 left out of the detail.
 */
function kafkaPerMessage(idle, window, n) {
  const result = {};
  for (const app of Object.keys(window.end.services)) {
    const at = (from, key) => from.services[app]?.kafka?.[key] ?? 0;
    const keys = new Set([...Object.keys(window.end.services[app]?.kafka ?? {}), ...Object.keys(idle.end.services[app]?.kafka ?? {})]);
    const detail = {};
    for (const key of keys) {
      const idleRate = (at(idle.end, key) - at(idle.start, key)) / idle.seconds;
      detail[key] = (at(window.end, key) - at(window.start, key) - idleRate * window.seconds) / n;
    }
    const sum = (kind) => Object.entries(detail).filter(([key]) => key.startsWith(kind)).reduce((total, [, v]) => total + v, 0);
    const shown = Object.entries(detail).filter(([, v]) => Math.abs(v) >= 0.05).sort((a, b) => b[1] - a[1]);
    if (keys.size) result[app] = { requests: sum('requests '), records: sum('records '), skipped: sum('skipped '), detail: shown };
  }
  return result;
}

/** Per message, over idle: each service's statements/transactions and the server's transactions. */
function statementsPerMessage(idle, window, n) {
  const over = (a, b, key) => (b.end[key] - b.start[key]) - ((a.end[key] - a.start[key]) / idle.seconds) * window.seconds;
  const services = Object.fromEntries(
    Object.keys(window.start.services)
      .map((app) => {
        const pair = (from) => ({ start: from.start.services[app], end: from.end.services[app] });
        const w = pair(window);
        return [app, { statements: over(pair(idle), w, 'statements') / n, transactions: over(pair(idle), w, 'transactions') / n, all: (w.end.statements - w.start.statements) / n }];
      })
      .filter(([, c]) => Number.isFinite(c.statements)),
  );
  const server = over({ start: { n: idle.start.server }, end: { n: idle.end.server } }, { start: { n: window.start.server }, end: { n: window.end.server } }, 'n') / n;
  return { services, server };
}

/**
 * What the bare Fastify + Kafka produce route (ceiling-server.cjs: the same record, through the platform's publisher)
 * costs the machine per request at the same rate, measured like a message: machine-wide over the idle baseline,
 * without the load generator. A machine twice as fast halves both, so their ratio compares runs across machines.
 */
async function ceilingCost({ platform, rate, seconds, idleMachineRate, log }) {
  const ceiling = await startCeiling('kafka', platform);
  try {
    log(`cost: the bare Fastify + Kafka produce route, ${seconds} s at ${rate}/s`);
    await openLoop({ rate: WARM_UP.rate, seconds: WARM_UP.seconds, fire: (i) => send(ceiling.url, 'ceiling', i) });
    const groups = { ceiling: [ceiling.pid], [LOAD]: [process.pid] };
    const start = new CpuSnapshot(groups);
    let answered = 0;
    await openLoop({ rate, seconds, fire: async (i) => void ((await send(ceiling.url, 'ceiling', i)) === 200 && answered++) });
    const used = new CpuSnapshot(groups).since(start);
    const n = Math.max(1, answered);
    return { answered, machine: (used.machine - idleMachineRate * used.seconds - used.groups[LOAD]) / n, process: used.groups.ceiling / n, wakeUps: used.wakeUps.ceiling / n };
  } finally {
    await ceiling.stop();
  }
}

/**
 * Traffic the cost is measured on: `fire(i)` posts the i-th unit (resolves the HTTP status), `done()` counts the units
 * carried all the way so far, `what` names them in the report.
 * @typedef {{ scenario: string, what: string, doneMeans: string, note: string, fire: (i: number) => Promise<number | null>, done: () => Promise<number>, close?: () => Promise<void> }} Traffic
 */

/** One outbound message: `POST /v1/send`, done once the message reads `read` (its three status callbacks applied). */
async function outboundTraffic(platform) {
  const tenant = await platform.tenant('bench cost');
  const url = `${platform.gateway}/v1/send`;
  return {
    scenario: 'cost per message',
    what: 'sends',
    doneMeans: 'every message read `read`',
    note: 'status callbacks on; latency of POST /v1/send',
    fire: (i) => send(url, tenant.apiKey, i),
    done: async () => outboundRead(platform, tenant.tenantId),
  };
}

/** The tenant's outbound messages that read `read`. */
async function outboundRead(platform, tenantId) {
  return Number((await platform.query(`SELECT count(*) AS n FROM messaging.messages WHERE tenant_id = $1 AND direction = 'outbound' AND status = 'read'`, [tenantId]))[0].n);
}

/**
 * One inbound message with its reply: a signed Cloud API notification of a customer's question posted to the gateway
 * (as Meta posts it), which the agent answers from an FAQ. Done once the tenant's webhook holds its `message.received`
 * and its reply reads `read`.
 */
async function inboundTraffic(platform) {
  const tenant = await platform.tenant('bench cost inbound');
  await putFaqAgent(platform, tenant);
  const receiver = await Receiver.start();
  const webhook = (await api('POST', `${platform.gateway}/api/v1/webhooks`, { token: tenant.apiKey, json: { url: receiver.url, events: ['message.received'] } })).body;
  receiver.useSecret(webhook.secret);
  const [channel] = await platform.sandboxChannels(tenant, 1);
  const url = `${platform.gateway}/webhooks/whatsapp`;
  const secret = platform.env.META_APP_SECRET;
  return {
    scenario: 'cost per inbound message',
    what: 'notifications',
    doneMeans: 'the webhook held every `message.received` and every reply read `read`',
    note: 'status callbacks on; latency of POST /webhooks/whatsapp (the notification queued)',
    fire: (i) => {
      const from = `+1415${String(5_000_000 + (i % RETURNING_CUSTOMERS))}`;
      const message = { from, id: `wamid.cost${Date.now().toString(36)}${i}`, text: `What are your opening hours? (${i})`, customer: 'Cost Customer' };
      const { body, headers } = signedCloudNotification(channel, message, secret);
      return post(url, body, headers);
    },
    // Every reply read: all the tenant's outbound messages read (a first message may bring more than one reply).
    done: async () => {
      const [{ all, read }] = await platform.query(
        `SELECT count(*) AS all, count(*) FILTER (WHERE status = 'read') AS read FROM messaging.messages WHERE tenant_id = $1 AND direction = 'outbound'`,
        [tenant.tenantId],
      );
      return Number(all) === Number(read) ? receiver.count : Math.min(receiver.count, Number(read));
    },
    close: () => receiver.close(),
  };
}

export async function costScenario(args) {
  return measureCost({ ...args, traffic: await outboundTraffic(args.platform) });
}

export async function inboundCostScenario(args) {
  const traffic = await inboundTraffic(args.platform);
  try {
    return await measureCost({ ...args, traffic });
  } finally {
    await traffic.close();
  }
}

/** The cost of one unit of `traffic`: idle baseline, the traffic at `rate` for `seconds`, drained, then the bare route. */
async function measureCost({ platform, seconds, rate, idleSeconds, pgSample = false, log, traffic }) {
  const database = new URL(platform.infra.databaseUrl).pathname.slice(1);
  // This run's own queries and Kafka admin calls are the load generator's, not the platform's: its backend is set apart.
  const ownBackend = Number((await platform.query('SELECT pg_backend_pid() AS pid'))[0].pid);
  await platform.consumerLag();

  let samplerBackend = null;
  let sandboxBackends = [];
  const groups = () => {
    const infra = infrastructurePids(database);
    const own = [ownBackend, samplerBackend].filter((pid) => pid !== null);
    infra['postgres backends'] = infra['postgres backends'].filter((pid) => !own.includes(pid) && !sandboxBackends.includes(pid));
    return { ...Object.fromEntries(Object.entries(platform.pids()).map(([app, pid]) => [app, [pid]])), ...infra, [SANDBOX_PG]: sandboxBackends, [LOAD]: [process.pid, ...own] };
  };
  const snapshot = async () => {
    const rows = await platform.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'sandbox'`, [database]);
    sandboxBackends = rows.map((r) => Number(r.pid));
    return new CpuSnapshot(groups());
  };

  // Warm-up: the JIT, the pools and the caches on every hop, drained before the idle baseline.
  log(`cost: warm-up ${WARM_UP.seconds} s at ${WARM_UP.rate}/s`);
  await openLoop({ rate: WARM_UP.rate, seconds: WARM_UP.seconds, fire: (i) => traffic.fire(CUSTOMERS + i) });
  const warm = WARM_UP.rate * WARM_UP.seconds;
  for (let deadline = Date.now() + 30_000; (await traffic.done()) < warm && Date.now() < deadline; ) await delay(500);
  await platform.drain(30_000, log);

  log(`cost: idle baseline, ${idleSeconds} s with no traffic`);
  const idleStart = await snapshot();
  const idleCountsStart = await statementCounts(platform, database);
  let stopProgress = progress('cost idle', () => `machine busy ${round((new CpuSnapshot({}).since(idleStart).machine / ((performance.now() - idleStart.at) / 1000)) / 10, 1)}% of one core`, 5000);
  await delay(idleSeconds * 1000);
  stopProgress();
  const idle = (await snapshot()).since(idleStart);
  const idleCounts = { start: idleCountsStart, end: await statementCounts(platform, database), seconds: idle.seconds };
  const idleRate = (ms) => ms / idle.seconds; // ms of CPU per second

  log(`cost: ${traffic.what} for ${seconds} s at ${rate}/s, status callbacks on, then drained until ${traffic.doneMeans}`);
  const latencies = new Latencies();
  let answered = 0;
  let failed = 0;
  let read = 0;
  const countsStart = await statementCounts(platform, database);
  // --pg-sample: the sampler's backend is the load generator's too; its own CPU is the load generator's
  const pgSampler = pgSample ? await PgActivitySampler.start(platform.infra.databaseUrl) : null;
  if (pgSampler) samplerBackend = pgSampler.pid;
  const start = await snapshot();
  const sampler = new RssSampler(platform.pids());
  stopProgress = progress('cost', () => `${answered} answered, ${failed} failed, ${read} done`);
  const poll = setInterval(() => void traffic.done().then((n) => (read = n), () => undefined), 1000);
  const sending = await openLoop({
    rate,
    seconds,
    fire: async (i) => {
      const t0 = performance.now();
      const status = await traffic.fire(i);
      if (status === 200) {
        answered++;
        latencies.add(performance.now() - t0);
      } else {
        failed++;
      }
    },
  });
  // Every answered send, and any of the failed ones that reached the broker all the same, reads `read` in the end.
  const expected = warm + answered;
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while ((read = await traffic.done()) < expected && Date.now() < deadline) await delay(250);
  clearInterval(poll);
  const lag = await platform.drain(Math.max(0, deadline - Date.now()), log);
  const end = await snapshot();
  const activity = await pgSampler?.stop();
  const countsEnd = await statementCounts(platform, database);
  stopProgress();
  const rss = sampler.stop();
  const used = end.since(start);
  // The messages the platform carried to `read`: a send answered 503 after its time-out may still have reached the
  // broker (CONTRACT.md §4 allows it) and costs the same as one answered 200.
  const n = Math.max(1, read - warm);

  // Net CPU ms per message of a group: its CPU over the window minus its idle rate over the same time.
  const net = (name) => (used.groups[name] - idleRate(idle.groups[name] ?? 0) * used.seconds) / n;
  const names = Object.keys(used.groups);
  const perMessage = Object.fromEntries(names.map((name) => [name, round(net(name), 2)]));
  // Wake-ups a message causes in each group, over idle the same way.
  const wakeUps = Object.fromEntries(names.map((name) => [name, (used.wakeUps[name] - ((idle.wakeUps[name] ?? 0) / idle.seconds) * used.seconds) / n]));
  const ourWakeUps = names.filter((name) => ![SANDBOX, SANDBOX_PG, LOAD].includes(name)).reduce((sum, name) => sum + wakeUps[name], 0);
  const machine = (used.machine - idleRate(idle.machine) * used.seconds) / n;
  const ours = machine - net(SANDBOX) - net(SANDBOX_PG) - net(LOAD);
  const services = names.filter((name) => platform.pids()[name] && name !== SANDBOX);
  const measured = names.filter((name) => ![SANDBOX, SANDBOX_PG, LOAD].includes(name)).reduce((sum, name) => sum + net(name), 0);
  const idlePercent = (name) => round(idleRate(idle.groups[name]) / 10, 2);
  const stackIdle = round(services.reduce((sum, name) => sum + idleRate(idle.groups[name]), 0) / 10, 1);
  const sql = statementsPerMessage(idleCounts, { start: countsStart, end: countsEnd, seconds: used.seconds }, n);
  // The sandbox plays Meta: its statements are shown, not counted as ours.
  const ourSql = Object.entries(sql.services).filter(([app]) => app !== SANDBOX).map(([, c]) => c);
  const sqlTotal = ourSql.reduce((sum, c) => sum + c.statements, 0);
  const sqlTransactions = ourSql.reduce((sum, c) => sum + c.transactions, 0);
  const sqlAll = ourSql.reduce((sum, c) => sum + c.all, 0);
  const kafka = kafkaPerMessage(idleCounts, { start: countsStart, end: countsEnd, seconds: used.seconds }, n);
  const kinds = statementKindsPerMessage(idleCounts, { start: countsStart, end: countsEnd, seconds: used.seconds }, n);
  const ourKafka = Object.entries(kafka).filter(([app]) => app !== SANDBOX);
  const kafkaRequests = ourKafka.reduce((sum, [, k]) => sum + k.requests, 0);
  const kafkaRecords = ourKafka.reduce((sum, [, k]) => sum + k.records, 0);
  const kafkaSkipped = ourKafka.reduce((sum, [, k]) => sum + k.skipped, 0);
  const route = await ceilingCost({ platform, rate, seconds, idleMachineRate: idleRate(idle.machine), log });
  const ratio = ours / route.machine;
  const s = latencies.summary();
  const row = {
    scenario: traffic.scenario,
    offered: rate,
    achieved: round(answered / sending.seconds, 0),
    ...s,
    errors: failed + Math.max(0, expected - read),
    handled: n,
    rss,
    cpu: sampler.cpu,
    note: `${traffic.note}; CPU ms per message over idle: ${round(ours, 2)} machine-wide (${round(ratio, 1)}× the bare Fastify + Kafka produce route's ${round(route.machine, 2)}), ${round(measured, 2)} summed over our processes; ${round(sqlTotal, 1)} PostgreSQL statements and ${round(kafkaRequests, 1)} Kafka requests per message (details below)`,
  };
  const lines = [
    `**${traffic.scenario[0].toUpperCase()}${traffic.scenario.slice(1)}** (${n} carried through of ${sending.sent} ${traffic.what} at ${rate}/s over ${round(sending.seconds, 0)} s (${answered} answered 200, ${failed} not), status callbacks on, window ${round(used.seconds, 1)} s until ${traffic.doneMeans}${read < expected ? ` — ${expected - read} never were` : ''}${lag ? `, consumer lag ${lag} left` : ''}; idle baseline ${round(idle.seconds, 0)} s in the same run):`,
    '',
    `- machine-wide: **${round(machine, 2)} CPU ms per message** minus the idle baseline (machine idle rate ${round(idleRate(idle.machine) / 10, 1)}% of one core, other engineers' work included); without the sandbox (${round(net(SANDBOX), 2)}, and ${round(net(SANDBOX_PG), 2)} in its PostgreSQL connections) and the load generator (${round(net(LOAD), 2)}): **${round(ours, 2)}** (target ≤ 1.5).`,
    `- against the bare Fastify + Kafka produce route (the same record through the platform's publisher, ${route.answered} requests at the same ${rate}/s right after, measured the same way): ${round(route.machine, 2)} CPU ms per request machine-wide without the load generator (its own process ${round(route.process, 2)}, the broker and the rest ${round(route.machine - route.process, 2)}); **a message costs ${round(ratio, 1)}× that route** (a ratio machines of different speed share).`,
    ...(idleRate(idle.machine) > BUSY_MACHINE_MS_PER_S
      ? [`- **the machine was busy with other work** (${round(idleRate(idle.machine) / 10, 0)}% of one core with our stack idle, on ${os.cpus().length} cores): the machine-wide figure is unreliable; read the sum over our processes.`]
      : []),
    `- per process, CPU ms per message over idle (and in all, idle included): ${names.map((name) => `${name} ${perMessage[name]} (${round(used.groups[name] / n, 2)})`).join(', ')}; ours summed from the processes (services without the sandbox, Kafka, PostgreSQL, Redis): ${round(measured, 2)}.`,
    `- wake-ups per message over idle (voluntary context switches of every thread of the process; what one costs this machine: tools/bench/wakeup-cost.cjs): **${round(ourWakeUps, 1)} summed over our processes** (the bare route: ${round(route.wakeUps, 1)} in its own process); ${names.map((name) => `${name} ${round(wakeUps[name], 1)}`).join(', ')}.`,
    `- idle: the stack (five services, sandbox apart) ${stackIdle}% of one core (target ≤ 10); each: ${names.filter((name) => platform.pids()[name]).map((name) => `${name} ${idlePercent(name)}%`).join(', ')}; Kafka ${idlePercent('kafka')}%, PostgreSQL backends ${idlePercent('postgres backends')}% (shared processes ${idlePercent('postgres shared')}%, other databases included), Redis ${idlePercent('redis')}%.`,
    `- PostgreSQL statements per message (per service), over idle (and in all, idle included): **${round(sqlTotal, 2)} statements in ${round(sqlTransactions, 2)} transactions** summed over our services (${round(sqlAll, 2)} in all; the sandbox apart); ${Object.entries(sql.services).filter(([, c]) => Math.abs(c.statements) >= 0.005).map(([app, c]) => `${app} ${round(c.statements, 2)} (${round(c.transactions, 2)} tx; ${round(c.all, 2)} in all)`).join(', ')}; the server counted ${round(sql.server, 2)} transactions per message on the run's database (the load generator's polling included).`,
    `- PostgreSQL statements per message by kind (the verb and its table; BEGIN and COMMIT are a transaction's own), over idle, most first: ${kinds.map(([app, kind, v]) => `${app} \`${kind}\` ${round(v, 2)}`).join(', ')}.`,
    `- Kafka per message, over idle: **${round(kafkaRequests, 2)} requests and ${round(kafkaRecords, 2)} records fetched, ${round(kafkaSkipped, 2)} of them skipped unread** summed over our services (every consumer fetches each record of its topics; one whose routing header says it is not the consumer's own is skipped without parsing; the sandbox apart); ${ourKafka.map(([app, k]) => `${app} ${round(k.requests, 2)} requests, ${round(k.records, 2)} records (${k.detail.map(([key, v]) => `${key} ${round(v, 2)}`).join(', ')})`).join('; ')}.`,
    ...(activity
      ? [
          `- PostgreSQL's backends, sampled every 5 ms while it sent and drained (--pg-sample; ${activity.samples} samples, a backend active in ${activity.seen}): waiting on ${activity.waits.map(([w, n]) => `${w} ${round((100 * n) / activity.seen, 1)}%`).join(', ')}; the statements seen most, as a share of the active samples: ${activity.statements.map(([q, n]) => `${round((100 * n) / activity.seen, 1)}% \`${q.replace(/`/g, "'")}\``).join('; ')}.`,
        ]
      : []),
    `- RSS under this load (peak MB): ${Object.entries(rss).map(([app, mb]) => `${app} ${mb}`).join(', ')}.`,
  ];
  log(`  → ${lines.join('\n')}`);
  row.details = lines.join('\n');
  return [row];
}
