'use strict';
// The live part of `npm run soak` (issue 9), shared by tools/soak/run.mjs and the short e2e run: starts the built
// stack on free ports with a database, Kafka namespace and Redis prefix of its own, sets up tenants (sandbox numbers,
// an agent, a webhook endpoint to a local receiver), offers mixed load at fixed rates (sends, signed inbound
// notifications the agent answers, API reads, agent changes), samples RSS, consumer lag and counts, lets the system
// drain, scans the logs, judges (analysis.cjs) and writes report.md, memory.svg and lag.svg.
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { judge } = require('./analysis.cjs');
const { scanLogFiles } = require('./logscan.cjs');
const { renderCharts, renderMarkdown, renderText } = require('./report.cjs');
const { APPS, ROOT, createTenantWithSandboxChannel, digits, signedCloudNotification, startPlatform } = require('../../dev/lib/platform.cjs');

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const REQUEST_TIMEOUT_MS = 10_000;
/** Requests of one kind allowed in flight; beyond it a tick's request is counted failed (the system stalls). */
const MAX_IN_FLIGHT = 400;
const CUSTOMERS = 10_000;
const QUESTION = 'what are your opening hours?';

/** VmRSS of a process in MB (null when it is gone). */
function rssOf(pid) {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round((Number(kb) / 1024) * 10) / 10;
  } catch {
    return null;
  }
}

/**
 * Lag per consumer group of the namespace: the topics' end offsets minus the committed offsets, summed per group, over
 * the topics the group commits on. A partition of such a topic with data but no commit yet counts from its start (the
 * services' durable consumers read from the beginning). Request-reply consumers never commit: they are listed at 0.
 */
async function consumerLag(admin, namespace) {
  const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith(namespace)).sort();
  const ends = new Map();
  const offsetsOf = async (topic) => {
    if (!ends.has(topic)) ends.set(topic, new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, { high: Number(p.high), low: Number(p.low) }])));
    return ends.get(topic);
  };
  const lag = {};
  for (const groupId of groups) {
    const topics = (await admin.fetchOffsets({ groupId })).map((t) => t.topic);
    let sum = 0;
    // Asked by name, a topic's partitions come back all, the uncommitted ones with offset -1.
    for (const { topic, partitions } of topics.length ? await admin.fetchOffsets({ groupId, topics }) : []) {
      const end = await offsetsOf(topic);
      for (const p of partitions) {
        const e = end.get(p.partition);
        if (e) sum += Math.max(0, e.high - (Number(p.offset) >= 0 ? Number(p.offset) : e.low));
      }
    }
    // A reply consumer's group carries a UUID: its first block is name enough for a table and a legend.
    lag[groupId.slice(namespace.length).replace(/([0-9a-f]{8})(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/, '$1')] = sum;
  }
  return lag;
}

/** An HTTP call: `{status, body}` (status 0 when no answer came). */
async function call(method, url, { token, json, headers = {} } = {}) {
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: typeof json === 'string' ? json : json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  } catch (err) {
    return { status: 0, body: String(err?.cause?.code ?? err?.name ?? err) };
  }
}

async function must(method, url, options) {
  const res = await call(method, url, options);
  if (res.status < 200 || res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/**
 * Every tenant's webhook endpoint on one local server (`/hook/<tenant index>`): verifies each signature with the
 * Standard Webhooks library and records the `message.received` events of this run's inbound messages by index.
 */
async function startReceiver(run) {
  const { Webhook } = require('standardwebhooks');
  const verifiers = new Map();
  const receiver = { deliveries: 0, badSignatures: 0, received: new Map(), verifiers };
  const pattern = new RegExp(`soak ${run} in (\\d+) `);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      receiver.deliveries++;
      const body = Buffer.concat(chunks).toString('utf8');
      const verifier = verifiers.get(req.url);
      try {
        verifier.verify(body, req.headers);
      } catch {
        receiver.badSignatures++;
        return;
      }
      let event;
      try {
        event = JSON.parse(body);
      } catch {
        return;
      }
      const m = event.event === 'message.received' && typeof event.message === 'string' ? pattern.exec(event.message) : null;
      if (!m) return;
      const i = Number(m[1]);
      // Redelivery of one event keeps its webhook-id; a second id for the same inbound message is a duplicate event.
      const ids = receiver.received.get(i) ?? new Set();
      ids.add(req.headers['webhook-id']);
      receiver.received.set(i, ids);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = (index) => `http://127.0.0.1:${server.address().port}/hook/${index}`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

function agentBody(revision) {
  return {
    name: 'support',
    instruction: `You answer the questions of the soak's customers (revision ${revision}).`,
    greeting: 'Hello from the soak!',
    skills: ['faq_responder'],
    faqs: [{ question: QUESTION, answer: `We are open 9:00 to 17:00, Monday to Friday (revision ${revision}).` }],
  };
}

/** `count` tenants (enterprise plan: no quota), each with `numbers` sandbox numbers, the agent and a webhook endpoint. */
async function setUpTenants(gateway, adminToken, receiver, { count, numbers }) {
  const tenants = [];
  for (let index = 0; index < count; index++) {
    const tenant = await createTenantWithSandboxChannel(gateway, {
      name: `Soak Tenant ${index + 1}`,
      plan: 'enterprise',
      adminToken,
      agent: agentBody(0),
      webhook: { url: receiver.url(index), events: ['message.received'], description: 'soak receiver' },
    });
    const token = tenant.apiKey;
    receiver.verifiers.set(new URL(receiver.url(index)).pathname, new (require('standardwebhooks').Webhook)(tenant.webhook.secret));
    let channels = tenant.channels;
    if (channels.length < numbers) {
      for (let n = channels.length; n < numbers; n++) await must('POST', `${gateway}/api/v1/channels/whatsapp`, { token, json: { provider: 'sandbox' } });
      channels = (await must('GET', `${gateway}/api/v1/channels?limit=100`, { token })).data;
    }
    tenants.push({ index, tenantId: tenant.tenantId, token, webhookId: tenant.webhook.id, channels, recentSends: [], revision: 0 });
  }
  return tenants;
}

/** The load: each kind at its own fixed rate (open loop, bounded in-flight), plus agent changes every `agentChangeMs`. */
function startLoad({ gateway, tenants, appSecret, rates, agentChangeMs, run, counts, failures }) {
  const channels = tenants.flatMap((t) => t.channels);
  const inFlight = new Set();
  // Per kind: its requests so far, those in flight, and its names in `counts`.
  const kinds = {
    send: { fired: 0, active: 0, offered: 'sendsOffered', failed: 'sends' },
    inbound: { fired: 0, active: 0, offered: 'inboundOffered', failed: 'inbound' },
    read: { fired: 0, active: 0, offered: 'readsOffered', failed: 'reads' },
  };
  const agentChanges = { active: 0 };
  const fail = (kind, detail) => {
    counts[`${kind}Failed`]++;
    if (failures.length < 50) failures.push(`${kind}: ${detail}`);
  };
  const fire = {
    async send(i) {
      const tenant = tenants[i % tenants.length];
      counts.sendsOffered++;
      const to = `+1415${6_000_000 + ((i * 7919) % CUSTOMERS)}`;
      const res = await call('POST', `${gateway}/v1/send`, { token: tenant.token, json: { channel: 'whatsapp', to, message: `soak ${run} send ${i}` } });
      if (res.status === 200 && res.body?.status === 'sent') {
        counts.sendsAccepted++;
        counts.acceptedSends.add(i);
        tenant.recentSends.push({ id: res.body.message_id, at: Date.now() });
        if (tenant.recentSends.length > 50) tenant.recentSends.shift();
      } else fail('sends', `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    },
    async inbound(i) {
      const channel = channels[i % channels.length];
      counts.inboundOffered++;
      const from = inboundCustomer(i);
      const message = { from, id: `wamid.soak${run}${i}`, text: `soak ${run} in ${i} ${QUESTION}`, customer: 'Soak Customer' };
      const { body, headers } = signedCloudNotification(channel, message, appSecret);
      const res = await call('POST', `${gateway}/webhooks/whatsapp`, { json: body, headers });
      if (res.status === 200) {
        counts.inboundAccepted++;
        counts.acceptedInbound.add(i);
      } else fail('inbound', `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    },
    async read(i) {
      const tenant = tenants[i % tenants.length];
      counts.readsOffered++;
      // A message accepted at least 5 s ago (CONTRACT §4: readable within 1 s of the answer).
      const settled = tenant.recentSends.filter((s) => Date.now() - s.at > 5000);
      const routes = [
        '/api/v1/messages?limit=20',
        settled.length ? `/api/v1/messages/${settled[settled.length - 1].id}` : '/api/v1/messages?direction=inbound&limit=5',
        '/api/v1/conversations?limit=20',
        '/api/v1/agents/support',
        '/api/v1/agents/support/versions',
        '/api/v1/usage',
        '/api/v1/channels',
        `/api/v1/webhooks/${tenant.webhookId}/deliveries?status=succeeded&limit=20`,
      ];
      const route = routes[Math.floor(i / tenants.length) % routes.length];
      const res = await call('GET', `${gateway}${route}`, { token: tenant.token });
      if (res.status === 200) counts.readsOk++;
      // The record is written when the messaging-service consumes the send: a 404 here is consumer lag showing
      // through (reported beside the lag, not counted as a failed request).
      else if (res.status === 404 && route.startsWith('/api/v1/messages/msg_')) counts.readsNotYetStored++;
      else fail('reads', `GET ${route} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    },
  };
  const track = (tally, p) => {
    tally.active++;
    const tracked = p.finally(() => {
      tally.active--;
      inFlight.delete(tracked);
    });
    inFlight.add(tracked);
  };
  const started = Date.now();
  const ticker = setInterval(() => {
    const elapsed = (Date.now() - started) / 1000;
    for (const kind of Object.keys(kinds)) {
      const due = Math.floor(elapsed * rates[kind]);
      while (kinds[kind].fired < due) {
        const i = kinds[kind].fired++;
        if (kinds[kind].active >= MAX_IN_FLIGHT) {
          counts[kinds[kind].offered]++;
          fail(kinds[kind].failed, `more than ${MAX_IN_FLIGHT} requests in flight`);
          continue;
        }
        track(kinds[kind], fire[kind](i));
      }
    }
  }, 50);
  let revision = 0;
  const agentTimer = setInterval(() => {
    const tenant = tenants[revision % tenants.length];
    revision++;
    counts.agentChangesOffered++;
    track(
      agentChanges,
      call('PUT', `${gateway}/api/v1/agents/support`, { token: tenant.token, json: agentBody(revision) }).then((res) => {
        if (res.status === 200 || res.status === 201) counts.agentChangesOk++;
        else fail('agentChanges', `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }),
    );
  }, agentChangeMs);
  return async () => {
    clearInterval(ticker);
    clearInterval(agentTimer);
    await Promise.all([...inFlight]);
  };
}

function emptyCounts() {
  return {
    sendsOffered: 0, sendsAccepted: 0, sendsFailed: 0, sendsAtSandbox: 0, sendsDuplicatedAtSandbox: 0,
    inboundOffered: 0, inboundAccepted: 0, inboundFailed: 0, inboundReceived: 0, duplicateEvents: 0, repliesAtSandbox: 0,
    customersWrote: 0, customersAnswered: 0, customersOverAnswered: 0,
    readsOffered: 0, readsOk: 0, readsFailed: 0, readsNotYetStored: 0,
    agentChangesOffered: 0, agentChangesOk: 0, agentChangesFailed: 0,
    badSignatures: 0, serviceExits: 0,
    acceptedSends: new Set(), acceptedInbound: new Set(),
  };
}

/** The customer who writes inbound message `i`: a different one for each of the first CUSTOMERS messages. */
function inboundCustomer(i) {
  return `+1415${5_000_000 + ((i * 7919) % CUSTOMERS)}`;
}

/** What the sandbox stored of this run's sends (by index), and the agent replies it holds per customer who wrote. */
async function sandboxCounts(query, run, counts) {
  const rows = await query(`SELECT body FROM sandbox.messages WHERE direction = 'outbound' AND body LIKE $1`, [`soak ${run} send %`]);
  const seen = new Set();
  let duplicates = 0;
  for (const { body } of rows) {
    const i = Number(body.slice(`soak ${run} send `.length));
    if (seen.has(i)) duplicates++;
    seen.add(i);
  }
  const replies = await query(
    `SELECT customer_number, count(*)::int AS n FROM sandbox.messages WHERE direction = 'outbound' AND (body IS NULL OR body NOT LIKE 'soak %') GROUP BY customer_number`,
  );
  const repliesTo = new Map(replies.map((r) => [digits(r.customer_number), r.n]));
  // Accepted messages per customer (a long run comes back to the same customers).
  const wrote = new Map();
  for (const i of counts.acceptedInbound) {
    const customer = digits(inboundCustomer(i));
    wrote.set(customer, (wrote.get(customer) ?? 0) + 1);
  }
  counts.sendsAtSandbox = [...counts.acceptedSends].filter((i) => seen.has(i)).length;
  counts.sendsDuplicatedAtSandbox = duplicates;
  counts.repliesAtSandbox = replies.reduce((n, r) => n + r.n, 0);
  counts.customersWrote = wrote.size;
  counts.customersAnswered = [...wrote.keys()].filter((c) => repliesTo.has(c)).length;
  counts.customersOverAnswered = [...wrote].filter(([c, n]) => (repliesTo.get(c) ?? 0) > n).length;
}

function receiverCounts(receiver, counts) {
  counts.inboundReceived = [...counts.acceptedInbound].filter((i) => receiver.received.has(i)).length;
  counts.duplicateEvents = [...receiver.received.values()].filter((ids) => ids.size > 1).length;
  counts.badSignatures = receiver.badSignatures;
}

function timestamp() {
  return new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
}

function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
}

/**
 * One soak run. Resolves `{result, text, files, passed}`; the stack is stopped whatever happens.
 * @param {object} o
 * @param {number} o.durationMs how long load is offered
 * @param {{send: number, inbound: number, read: number}} o.rates per second
 * @param {number} [o.sampleMs] sampling interval (10 s)
 * @param {number} [o.agentChangeMs] one agent change every … (30 s)
 * @param {number} [o.drainTimeoutMs] how long to wait after the load for lag 0 and every delivery (120 s)
 * @param {number} [o.tenants] (3) @param {number} [o.numbers] sandbox numbers per tenant (2)
 * @param {string} [o.outDir] (tmp/soak/<timestamp>)
 * @param {number} [o.warmupShare] (0.2) @param {object} [o.memory] @param {object} [o.lag] thresholds (analysis.cjs)
 * @param {(line: string) => void} [o.log] progress
 * @param {AbortSignal} [o.signal] stops the load early (the run is then judged on what ran)
 */
async function runSoak(o) {
  const log = o.log ?? (() => undefined);
  const sampleMs = o.sampleMs ?? 10_000;
  const agentChangeMs = o.agentChangeMs ?? 30_000;
  const drainTimeoutMs = o.drainTimeoutMs ?? 120_000;
  const warmupShare = o.warmupShare ?? 0.2;
  const startedAt = new Date().toISOString();
  const outDir = o.outDir ?? path.join(ROOT, 'tmp', 'soak', timestamp());
  fs.mkdirSync(outDir, { recursive: true });
  const run = randomBytes(4).toString('hex');

  log(`starting the stack (logs: ${path.relative(process.cwd(), path.join(outDir, 'logs'))}) ...`);
  const stackStarted = Date.now();
  // The supervisor restarts a service that exits (each exit is counted and judged). The default LOG_LEVEL warn keeps
  // every error and warning (the log scan's subject) without a request log line per call; a delivery that fails once
  // is retried within seconds, so the drain does not wait for the 5-minute step.
  const platform = await startPlatform({ name: 'soak', logDir: path.join(outDir, 'logs'), log, env: { WEBHOOK_RETRY_SCHEDULE: '1,2,5,10,30' } });
  log(`stack ready after ${((Date.now() - stackStarted) / 1000).toFixed(1)} s (database, migrations, six services)`);
  const receiver = await startReceiver(run);
  try {
    const gateway = platform.stack.url('gateway');
    const tenants = await setUpTenants(gateway, platform.env.ADMIN_TOKEN, receiver, { count: o.tenants ?? 3, numbers: o.numbers ?? 2 });
    log(`${tenants.length} tenants, ${tenants.reduce((n, t) => n + t.channels.length, 0)} sandbox numbers; load for ${Math.round(o.durationMs / 1000)} s: ${o.rates.send} sends/s, ${o.rates.inbound} inbound/s, ${o.rates.read} reads/s, an agent change every ${agentChangeMs / 1000} s`);

    const counts = emptyCounts();
    const failures = [];
    const samples = [];
    const groups = new Set();
    const loadStarted = Date.now();
    const sample = async (phase) => {
      const rss = {};
      for (const app of APPS) rss[app] = rssOf(platform.stack.services.get(app)?.child?.pid);
      let lag = {};
      try {
        lag = await consumerLag(await platform.kafkaAdmin(), platform.namespace);
      } catch (err) {
        log(`  (lag not sampled: ${err.message})`);
      }
      Object.keys(lag).forEach((g) => groups.add(g));
      await sandboxCounts((sql, params) => platform.query(sql, params), run, counts);
      receiverCounts(receiver, counts);
      counts.serviceExits = APPS.reduce((n, app) => n + (platform.stack.services.get(app)?.exits ?? 0), 0);
      const { acceptedSends, acceptedInbound, ...plain } = counts;
      const s = { t: Math.round((Date.now() - loadStarted) / 100) / 10, phase, rss, lag, counts: plain };
      samples.push(s);
      // Kept as it comes, so a run that breaks before its report still leaves its figures behind.
      fs.appendFileSync(path.join(outDir, 'samples.jsonl'), `${JSON.stringify(s)}\n`);
      const totalLag = Object.values(lag).reduce((a, b) => a + b, 0);
      log(`  ${phase} ${Math.round(s.t)} s: sends ${counts.sendsAccepted}/${counts.sendsOffered} accepted, ${counts.sendsAtSandbox} at the sandbox; inbound ${counts.inboundAccepted}/${counts.inboundOffered}, ${counts.inboundReceived} at the receiver; reads ${counts.readsOk}/${counts.readsOffered}; lag ${totalLag}; RSS ${APPS.map((a) => `${a.replace(/-service$/, '')} ${Math.round(rss[a] ?? 0)}`).join(', ')}`);
      return { totalLag };
    };

    const stopLoad = startLoad({ gateway, tenants, appSecret: platform.env.META_APP_SECRET, rates: o.rates, agentChangeMs, run, counts, failures });
    const loadEnds = loadStarted + o.durationMs;
    await sample('load');
    while (Date.now() < loadEnds && !o.signal?.aborted) {
      const next = loadStarted + samples.length * sampleMs;
      await delay(Math.max(0, Math.min(next, loadEnds) - Date.now()));
      if (Date.now() >= loadEnds || o.signal?.aborted) break;
      await sample('load');
    }
    await sample('load');
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    log('load stopped; waiting for the requests in flight ...');
    await stopLoad();

    // Drain: until every consumer group is back to 0 and everything accepted arrived (twice in a row), or time-out.
    const drainStarted = Date.now();
    const drainSample = Math.min(sampleMs, 5000);
    let settledTimes = 0;
    for (;;) {
      const { totalLag } = await sample('drain');
      const done =
        totalLag === 0 &&
        counts.sendsAtSandbox >= counts.sendsAccepted &&
        counts.inboundReceived >= counts.inboundAccepted &&
        counts.customersAnswered >= counts.customersWrote;
      settledTimes = done ? settledTimes + 1 : 0;
      // Settled twice, 2 s apart: a commit still in flight cannot fake a zero.
      if (settledTimes >= 2 || Date.now() - drainStarted >= drainTimeoutMs) break;
      await delay(done ? 2000 : drainSample);
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;

    // Scanned before the stack stops: shutdown messages are not the soak's subject.
    const logScan = await scanLogFiles(Object.fromEntries(APPS.map((app) => [app, platform.stack.logFile(app)])), loadStarted);
    const { acceptedSends, acceptedInbound, ...finalCounts } = counts;
    const services = [...APPS];
    const groupList = [...groups].sort();
    const judgement = judge({ samples, services, groups: groupList, counts: finalCounts, logScan, memory: { warmupShare, ...o.memory }, lag: { warmupShare, ...o.lag } });
    const result = {
      startedAt,
      run,
      rates: o.rates,
      loadSeconds,
      drainSeconds,
      sampleSeconds: sampleMs / 1000,
      agentChangeSeconds: agentChangeMs / 1000,
      warmupShare,
      tenants: tenants.length,
      machine: machine(),
      services,
      groups: groupList,
      samples,
      counts: finalCounts,
      failures,
      logScan,
      judgement,
    };
    const files = writeOutputs(outDir, result);
    return { result, text: renderText(result), files, passed: judgement.passed };
  } finally {
    await receiver.close();
    await platform.stop();
  }
}

function writeOutputs(outDir, result) {
  const { memory, lag } = renderCharts(result);
  const files = { report: path.join(outDir, 'report.md'), memory: path.join(outDir, 'memory.svg'), lag: path.join(outDir, 'lag.svg'), samples: path.join(outDir, 'samples.json') };
  fs.writeFileSync(files.report, renderMarkdown(result));
  fs.writeFileSync(files.memory, memory);
  fs.writeFileSync(files.lag, lag);
  fs.writeFileSync(files.samples, `${JSON.stringify({ ...result, logScan: Object.fromEntries(Object.entries(result.logScan).map(([k, v]) => [k, v.slice(0, 200)])) }, null, 1)}\n`);
  return files;
}

module.exports = { runSoak, consumerLag, rssOf, timestamp };
