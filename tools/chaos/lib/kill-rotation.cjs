'use strict';
// The kill-rotation scenario of `npm run chaos` (issue 9), shared with its short version in the e2e tests.
//
// Customers write to many tenants at a fixed rate (validly signed Cloud API notifications to the gateway, retried
// until answered 200, as Meta does); each tenant's agent answers deterministically (greeting + FAQ) and each tenant's
// webhook receiver fails a share of its requests; meanwhile each service in turn is SIGKILLed and brought back by the
// supervisor. Then, once everything is quiet: every message got exactly one reply (as the sandbox recorded what the
// customer received), every `message.received` reached its own tenant's receiver (repeats only with the same
// `webhook-id`) and no event or reply reached another tenant.
const { randomBytes } = require('node:crypto');
const http = require('node:http');
const { APPS, api, createTenantWithSandboxChannel, digits, signedCloudNotification } = require('../../dev/lib/platform.cjs');
const { ChaosPlatform } = require('./platform.cjs');
const { delay } = require('./scenario-kit.cjs');
const { FlakyReceiver } = require('./flaky-receiver.cjs');

const FAQ = { question: 'What are your opening hours?', answer: 'We are open from 8:00 to 18:00, Monday to Saturday.' };
/** Customer i is +1415 (5,000,000 + i): one customer per message, so every message is a conversation's only one. */
const FIRST_CUSTOMER = 14155000000;
const SETUP_CONCURRENCY = 5;
const POST_TIMEOUT_MS = 10_000;
/** A notification not answered 200 by then is given up (Meta retries for days; a run cannot). */
const GIVE_UP_MS = 180_000;

const DEFAULTS = Object.freeze({
  messages: 5000,
  rate: 100,
  tenants: 50,
  failureRate: 0.3,
  kill: APPS,
  /** Kill the next service only once the previous one is back (one down at a time); false: on schedule, overlapping. */
  oneAtATime: true,
  settleMs: 20_000,
  drainTimeoutMs: 300_000,
  label: 'killrotation',
  /** Settings of the services beyond SERVICE_ENV's (a short run shortens a wait it would otherwise outlast). */
  serviceEnv: {},
});

/** Settings of the services under test: quick webhook retries and time-outs, so a flaky receiver is caught up in seconds. */
const SERVICE_ENV = {
  // Thirteen attempts a second or so apart: with 30% failing, the chance all fail is 0.3^13 ≈ 2·10⁻⁷.
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/** A tenant: account, agent with a deterministic answer, its sandbox channel, a webhook to its own receiver path. */
async function createTenant(gateway, receiver, index) {
  const tenant = await createTenantWithSandboxChannel(gateway, {
    name: `Chaos Tenant ${index}`,
    agent: { name: 'support', instruction: 'Answer questions about opening hours.', greeting: 'Hello!', skills: ['faq_responder'], faqs: [FAQ] },
  });
  // The receiver's path names the tenant, so the endpoint is registered once the tenant exists.
  const endpoint = receiver.endpointFor(tenant.tenantId);
  const webhook = await api('POST', `${gateway}/api/v1/webhooks`, { token: tenant.apiKey, json: { url: endpoint.url, events: ['message.received'], description: `chaos ${index}` } });
  receiver.useSecret(endpoint.path, webhook.secret);
  return { index, tenantId: tenant.tenantId, token: tenant.apiKey, channel: tenant.channel, path: endpoint.path };
}

async function createTenants(gateway, receiver, count, signal) {
  const tenants = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count && !signal?.aborted) {
      const i = next++;
      tenants[i] = await createTenant(gateway, receiver, i);
    }
  };
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  if (signal?.aborted) throw new Error('aborted');
  return tenants;
}

/** POSTs once: resolves the status, or null when no answer came (refused, reset, timed out). */
function post(agent, url, body, headers) {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, signal: AbortSignal.timeout(POST_TIMEOUT_MS), headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/**
 * Sends `messages` notifications at `rate`/s (open loop: a slow or dead gateway does not slow the offered rate), each
 * retried with back-off until answered 200, as the provider does. Resolves the sender's tallies.
 */
async function sendAll({ platform, tenants, messages, rate, run, signal, tally }) {
  // Sockets enough for every notification in flight: the time-out must measure the gateway, not a queue in this client.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const url = `${platform.gateway}/webhooks/whatsapp`;
  const secret = platform.env.META_APP_SECRET;
  const deliver = async (i) => {
    const tenant = tenants[i % tenants.length];
    const message = { from: `+${FIRST_CUSTOMER + i}`, id: `wamid.chaos${run}${String(i).padStart(6, '0')}`, text: FAQ.question, customer: 'Chaos Customer' };
    const { body, headers } = signedCloudNotification(tenant.channel, message, secret);
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const status = await post(agent, url, body, headers);
      if (status === 200) {
        tally.accepted++;
        if (attempt > 0) tally.retried++;
        return;
      }
      if (status === null) tally.noAnswer++;
      else if (status >= 500) tally.fiveXx++;
      else tally.fourXx++;
      if (signal?.aborted || Date.now() - started > GIVE_UP_MS || (status !== null && status < 500 && status !== 429)) {
        tally.givenUp.push(i);
        return;
      }
      await delay(Math.min(200 * 2 ** attempt, 2000));
    }
  };
  const started = Date.now();
  const inFlight = [];
  for (let i = 0; i < messages && !signal?.aborted; i++) {
    const due = started + (i * 1000) / rate;
    if (due > Date.now()) await delay(due - Date.now());
    tally.posted++;
    inFlight.push(deliver(i));
  }
  await Promise.all(inFlight);
  agent.destroy();
}

/**
 * Kills each of `apps` in turn, spread evenly over the sending time. `oneAtATime`: a kill also waits until the
 * previous service is back; otherwise kills keep to the schedule and restarts may overlap.
 */
async function rotateKills({ platform, apps, sendingMs, oneAtATime, log, signal, tally }) {
  const started = Date.now();
  const restarts = [];
  for (let k = 0; k < apps.length && !signal?.aborted; k++) {
    const due = started + (sendingMs * (k + 1)) / (apps.length + 1);
    if (due > Date.now()) await delay(due - Date.now());
    if (signal?.aborted) break;
    const app = apps[k];
    log(`SIGKILL ${app}`);
    const restart = platform.kill(app, { signal }).then(
      (seconds) => {
        tally.kills++;
        tally.restartSeconds.push(seconds);
        log(`${app} ready again ${seconds.toFixed(1)} s after its kill`);
      },
      (err) => {
        tally.killErrors.push(`${app}: ${err.message}`);
        log(`${app}: ${err.message}`);
      },
    );
    restarts.push(restart);
    if (oneAtATime) await restart;
  }
  await Promise.all(restarts);
}

/** What customers received, per customer index: `{count, wrongSender}` (from the sandbox's record of sends). */
async function repliesByCustomer(platform, tenants, messages) {
  // biz_opaque_callback_data is the Parley message id of each send: the same id twice is one reply sent twice.
  const rows = await platform.query(
    `SELECT customer_number, business_number, count(*)::int AS n, count(DISTINCT biz_opaque_callback_data)::int AS ids FROM sandbox.messages WHERE direction = 'outbound' GROUP BY 1, 2`,
  );
  const byCustomer = new Map();
  let wrongSender = 0;
  let strangers = 0;
  let resent = 0;
  for (const row of rows) {
    resent += row.n - row.ids;
    const i = Number(digits(row.customer_number)) - FIRST_CUSTOMER;
    if (!(i >= 0 && i < messages)) {
      strangers += row.n;
      continue;
    }
    byCustomer.set(i, (byCustomer.get(i) ?? 0) + row.n);
    // A reply must come from the number of the tenant the customer wrote to.
    if (digits(row.business_number) !== digits(tenants[i % tenants.length].channel.phone_number)) wrongSender += row.n;
  }
  return { byCustomer, wrongSender, strangers, resent };
}

/** The receiver's deliveries judged: per message, the webhook ids it came with; anything at the wrong tenant. */
function judgeDeliveries(receiver, tenants, messages) {
  const tenantByPath = new Map(tenants.map((t) => [t.path, t]));
  const idsByMessage = new Map();
  let crossTenant = 0;
  let badSignatures = 0;
  let withoutReply = 0;
  let otherEvents = 0;
  let repeatsSameId = 0;
  const seen = new Set();
  const examples = [];
  for (const d of receiver.delivered) {
    const tenant = tenantByPath.get(d.path);
    if (!d.verified) badSignatures++;
    const event = d.event;
    if (!event || event.event !== 'message.received') {
      otherEvents++;
      continue;
    }
    const i = Number(digits(event.from)) - FIRST_CUSTOMER;
    const owner = i >= 0 && i < messages ? tenants[i % tenants.length] : null;
    if (!tenant || owner !== tenant || event.tenant_id !== tenant.tenantId) {
      crossTenant++;
      if (examples.length < 5) examples.push(`event of customer ${event.from} (tenant ${event.tenant_id}) at the receiver of tenant ${tenant?.tenantId}`);
      continue;
    }
    if (!event.agent_response) withoutReply++;
    const key = `${i}|${d.webhookId}`;
    if (seen.has(key)) repeatsSameId++;
    seen.add(key);
    const ids = idsByMessage.get(i) ?? new Set();
    ids.add(d.webhookId);
    idsByMessage.set(i, ids);
  }
  let repeatsNewId = 0;
  for (const ids of idsByMessage.values()) repeatsNewId += ids.size - 1;
  return { idsByMessage, crossTenant, badSignatures, withoutReply, otherEvents, repeatsSameId, repeatsNewId, examples };
}

/**
 * Runs the scenario on a stack of its own; resolves `{figures, failures}`.
 * @param {Partial<typeof DEFAULTS>} options
 * @param {{log?: (m: string) => void, signal?: AbortSignal}} io
 */
async function runKillRotation(options = {}, { log = () => undefined, signal } = {}) {
  const o = { ...DEFAULTS, ...options };
  const apps = o.kill === false ? [] : o.kill === true ? [...APPS] : [...o.kill];
  const unknown = apps.filter((a) => !APPS.includes(a));
  if (unknown.length) throw new Error(`cannot kill ${unknown.join(', ')}: not a service (${APPS.join(', ')})`);
  log(`starting the stack (${o.tenants} tenants, ${o.messages} messages at ${o.rate}/s, receivers failing ${Math.round(o.failureRate * 100)}%, killing ${apps.join(', ') || 'nothing'})`);
  const receiver = await FlakyReceiver.start({ failureRate: o.failureRate });
  let platform;
  try {
    // Restarts on: the supervisor brings each killed service back. Quiet start: no line per service.
    platform = await ChaosPlatform.start({ label: o.label, env: { ...SERVICE_ENV, ...o.serviceEnv }, restart: true, log, signal, onReady: () => undefined });
  } catch (err) {
    await receiver.close();
    throw err;
  }
  const sender = { posted: 0, accepted: 0, retried: 0, fiveXx: 0, fourXx: 0, noAnswer: 0, givenUp: [] };
  const killing = { kills: 0, restartSeconds: [], killErrors: [] };
  let snapshot = { replies: 0, replied: 0, delivered: 0 };
  let phase = 'setting up tenants';
  const ticker = setInterval(() => {
    log(`${phase}: ${sender.posted}/${o.messages} posted, ${sender.accepted} accepted, ${snapshot.replies} replies to ${snapshot.replied} customers, ${snapshot.delivered} webhooks delivered, ${killing.kills}/${apps.length} kills`);
  }, 1000);
  const observe = async () => {
    const [row] = await platform.query(`SELECT count(*)::int AS replies, count(DISTINCT customer_number)::int AS replied FROM sandbox.messages WHERE direction = 'outbound'`);
    snapshot = { replies: row.replies, replied: row.replied, delivered: receiver.delivered.length };
    return snapshot;
  };
  const watcher = setInterval(() => observe().catch(() => undefined), 1000);
  try {
    const tenants = await createTenants(platform.gateway, receiver, o.tenants, signal);
    const run = randomBytes(4).toString('hex');
    const sendingMs = (o.messages / o.rate) * 1000;
    phase = 'sending and killing';
    const started = Date.now();
    await Promise.all([
      sendAll({ platform, tenants, messages: o.messages, rate: o.rate, run, signal, tally: sender }),
      rotateKills({ platform, apps, sendingMs, oneAtATime: o.oneAtATime, log, signal, tally: killing }),
    ]);
    const sentSeconds = (Date.now() - started) / 1000;

    // Quiet: every accepted message answered and announced, then nothing new for settleMs (late repeats show up).
    phase = 'waiting for quiet';
    const deadline = Date.now() + o.drainTimeoutMs;
    let last = '';
    let stableSince = Date.now();
    let complete = false;
    const given = new Set(sender.givenUp);
    const expected = [...Array(sender.posted).keys()].filter((i) => !given.has(i)).map((i) => String(FIRST_CUSTOMER + i));
    while (!signal?.aborted && Date.now() < deadline) {
      const s = await observe().catch(() => snapshot);
      const now = JSON.stringify(s);
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      }
      // Complete: each accepted message's own customer has a reply and a delivered event (not just as many).
      const replied = new Set((await platform.query(`SELECT DISTINCT customer_number FROM sandbox.messages WHERE direction = 'outbound'`).catch(() => [])).map((r) => digits(r.customer_number)));
      const delivered = new Set(receiver.delivered.map((d) => digits(d.event?.from)));
      complete = expected.every((c) => replied.has(c) && delivered.has(c));
      if (complete && Date.now() - stableSince >= o.settleMs) break;
      await delay(500);
    }
    const quietSeconds = (Date.now() - started) / 1000 - sentSeconds;

    const { byCustomer, wrongSender, strangers, resent } = await repliesByCustomer(platform, tenants, o.messages);
    const accepted = [...Array(sender.posted).keys()].filter((i) => !given.has(i));
    const missingReplies = accepted.filter((i) => !byCustomer.get(i));
    const duplicateReplies = [...byCustomer.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const repliesOut = [...byCustomer.values()].reduce((sum, n) => sum + n, 0);
    const judged = judgeDeliveries(receiver, tenants, o.messages);
    const missingWebhooks = accepted.filter((i) => !judged.idsByMessage.has(i));
    const unexpected = platform.unexpectedExits();
    const readiness = await platform.readiness();
    const notReady = Object.entries(readiness).filter(([, s]) => !s.startsWith('HTTP 200'));

    const figures = {
      'messages in': sender.accepted,
      'messages not accepted': sender.givenUp.length,
      'replies out': repliesOut,
      'duplicate replies': duplicateReplies,
      '  of which one reply sent twice': resent,
      'missing replies': missingReplies.length,
      'replies from another tenant': wrongSender + strangers,
      'webhooks delivered': judged.idsByMessage.size,
      'duplicate deliveries (same id)': judged.repeatsSameId,
      'duplicate events (new id)': judged.repeatsNewId,
      'missing webhooks': missingWebhooks.length,
      'cross-tenant': judged.crossTenant,
      'bad signatures': judged.badSignatures,
      'events without agent_response': judged.withoutReply,
      'receiver failures injected': `${receiver.injected[500]} × 500, ${receiver.injected.timeout} time-outs, ${receiver.injected.reset} resets`,
      'kills done': `${killing.kills}/${apps.length}`,
      'slowest restart (s)': killing.restartSeconds.length ? Math.max(...killing.restartSeconds).toFixed(1) : '–',
      'unexpected exits': Object.entries(unexpected).map(([a, n]) => `${a} ${n}×`).join(', ') || 0,
      '5xx seen by the sender': sender.fiveXx,
      'no answer seen by the sender': sender.noAnswer,
      'notifications retried': sender.retried,
      'sending (s)': Number(sentSeconds.toFixed(1)),
      'quiet after (s)': Number(quietSeconds.toFixed(1)),
    };
    const failures = [];
    const some = (list) => list.slice(0, 10).map((i) => `+${FIRST_CUSTOMER + i}`).join(', ');
    // Interrupted: the figures show how far it got; judging a half-run would only list what it did not wait for.
    if (signal?.aborted) return { figures, failures: [`interrupted after ${sender.posted} of ${o.messages} messages`] };
    if (sender.givenUp.length) failures.push(`${sender.givenUp.length} notifications never answered 200 (customers ${some(sender.givenUp)})`);
    if (missingReplies.length) failures.push(`${missingReplies.length} messages got no reply (customers ${some(missingReplies)})`);
    if (duplicateReplies) {
      const twice = [...byCustomer].filter(([, n]) => n > 1).map(([i]) => i);
      // Evidence: the same Parley message_id (biz_opaque_callback_data) sent twice is a repeated provider call; two
      // message ids are two replies.
      const rows = await platform.query(
        `SELECT customer_number, id, biz_opaque_callback_data AS message_id, created_at FROM sandbox.messages WHERE direction = 'outbound' AND regexp_replace(customer_number, '\\D', '', 'g') = ANY($1) ORDER BY customer_number, seq`,
        [twice.slice(0, 3).map((i) => String(FIRST_CUSTOMER + i))],
      );
      const evidence = rows.map((r) => `${r.customer_number} ${r.message_id} ${r.id} at ${r.created_at.toISOString()}`).join('; ');
      const why = resent ? `; ${resent} of them one reply (same message_id) sent to the provider again, e.g. after a send whose outcome was unknown saw no status within WHATSAPP_UNCONFIRMED_SEND_WAIT_MS` : '';
      failures.push(`${duplicateReplies} duplicate replies (customers ${some(twice)})${why}; sends: ${evidence}`);
    }
    if (wrongSender + strangers) failures.push(`${wrongSender + strangers} replies sent from another tenant's number or to a customer nobody wrote as`);
    if (missingWebhooks.length) failures.push(`${missingWebhooks.length} message.received never delivered (customers ${some(missingWebhooks)})`);
    if (judged.repeatsNewId) failures.push(`${judged.repeatsNewId} message.received delivered again under a new webhook-id`);
    if (judged.crossTenant) failures.push(`${judged.crossTenant} events at another tenant's receiver: ${judged.examples.join('; ')}`);
    if (judged.badSignatures) failures.push(`${judged.badSignatures} deliveries not signed with the receiving tenant's secret`);
    if (judged.withoutReply) failures.push(`${judged.withoutReply} message.received without agent_response`);
    if (killing.killErrors.length) failures.push(...killing.killErrors.map((e) => `kill: ${e}`));
    if (Object.keys(unexpected).length) failures.push(`services exited on their own: ${figures['unexpected exits']} (see ${platform.stack.logDir})`);
    if (notReady.length) failures.push(`not ready afterwards: ${notReady.map(([a, s]) => `${a} ${s}`).join(', ')}`);
    if (!complete && !signal?.aborted) failures.push(`not quiet within ${o.drainTimeoutMs / 1000} s of the last message`);
    return { figures, failures };
  } finally {
    clearInterval(ticker);
    clearInterval(watcher);
    await receiver.close();
    await platform.stop();
  }
}

module.exports = { DEFAULTS, FAQ, runKillRotation };
