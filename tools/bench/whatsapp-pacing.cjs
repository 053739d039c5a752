#!/usr/bin/env node
/**
 * Per-number send pacing benchmark (issue 5): a burst of queued messages through two messaging-service instances to
 * the real WhatsApp sandbox, measured where the sandbox received them. Real Kafka, Postgres, Redis and HTTP.
 *
 *   node tools/dev/swc-build.mjs && timeout 400 node tools/bench/whatsapp-pacing.cjs [messages=2000] [numbers=1] [limit=80] [answer delay ms=0] [mode=queued]
 *
 * A burst of `messages` outbound messages, spread over `numbers` sandbox numbers (each its own tenant, each channel
 * limited to `limit` messages/s) and over recipients that get 4 messages each. Mode `queued` records and queues the
 * whole burst in one transaction (exactly the rows the outbound consumer writes), so the send queue's pacing is
 * measured alone; mode `kafka` publishes `message.outbound` events instead, so the consumer's intake rate counts too.
 * Prints each number's sends per second over time, then JSON on the last line: per number the peak of any 1 s window
 * and the average rate from its first to its last send, the total rate, and how many messages reached the sandbox
 * more than once (by `biz_opaque_callback_data`, our message id).
 */
'use strict';
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const { KafkaHarness, pollUntil, testInfra } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { EventPublisher } = require(path.join(DIST, 'libs/kafka/src/index.js'));
const { Topics, conversationKey, newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));
const { freePorts } = require(path.join(ROOT, 'tools/dev/lib/stack.cjs'));
const { prepareServiceEnv, spawnService } = require('./lib/service.cjs');
const { Client } = require('pg');
const fs = require('node:fs');

// This script measures the pacing alone: no gateway runs, so status callbacks would have nowhere to go (the sandbox
// would retry them for the whole run). Off, and the result says so (BENCHMARKS.md: a figure without them says so).
const STATUS_CALLBACKS = false;

/** CPU seconds (user + system) a child process has used so far (Linux). */
function cpuSeconds(child) {
  try {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const MESSAGES = Number(process.argv[2] ?? 2000);
const NUMBERS = Number(process.argv[3] ?? 1);
const LIMIT = Number(process.argv[4] ?? 80);
const ANSWER_DELAY_MS = Number(process.argv[5] ?? 0);
const MODE = process.argv[6] ?? 'queued';
if (!['queued', 'kafka'].includes(MODE)) throw new Error(`mode must be queued or kafka, not ${MODE}`);
const INSTANCES = 2;
const PER_RECIPIENT = 4;

function start(app, env) {
  const out = process.env.BENCH_LOG_DIR ? fs.openSync(path.join(process.env.BENCH_LOG_DIR, `${app}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.log`), 'w') : 'ignore';
  const nodeArgs = app === 'messaging-service' && process.env.BENCH_SERVICE_NODE_ARGS ? process.env.BENCH_SERVICE_NODE_ARGS.split(' ') : [];
  const child = spawnService(app, env, { nodeArgs, stdout: out });
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  return child;
}

async function stop(child) {
  if (child.exitCode === null) child.kill('SIGTERM');
  await child.exited;
}

/** Sends per whole second since the first send, and the busiest sliding one-second window. */
function shape(times) {
  const first = times[0];
  const perSecond = [];
  for (const t of times) {
    const i = Math.floor((t - first) / 1000);
    perSecond[i] = (perSecond[i] ?? 0) + 1;
  }
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (times[j] <= times[i] - 1000) j += 1;
    peak = Math.max(peak, i - j + 1);
  }
  const seconds = (times.at(-1) - first) / 1000;
  return { perSecond: Array.from(perSecond, (n) => n ?? 0), peak_1s: peak, average_per_second: Number(((times.length - 1) / Math.max(seconds, 0.001)).toFixed(1)), seconds: Number(seconds.toFixed(2)) };
}

async function main() {
  const ports = await freePorts(['sandbox', ...Array.from({ length: INSTANCES }, (_, i) => `messaging${i}`)]);
  const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
  const { db, namespace, env } = await prepareServiceEnv('wapacing', {
    apps: ['whatsapp-sandbox', 'messaging-service'],
    settings: {
      REDIS_URL: testInfra().redisUrl,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      SANDBOX_URL: sandboxUrl,
      SANDBOX_ENABLED: 'true',
      SANDBOX_STATUS_CALLBACKS: String(STATUS_CALLBACKS),
    },
  });
  const sandbox = start('whatsapp-sandbox', { ...env, PORT: String(ports.sandbox) });
  const instances = Array.from({ length: INSTANCES }, (_, i) => start('messaging-service', { ...env, PORT: String(ports[`messaging${i}`]) }));
  const kafka = await KafkaHarness.start(namespace);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  try {
    const channels = [];
    for (let n = 0; n < NUMBERS; n += 1) {
      const tenantId = `ten_bench${n}`;
      const channel = await pollUntil(() => kafka.rpc.request('channels.provision-sandbox', { tenant_id: tenantId }, { timeoutMs: 5000 }).catch(() => undefined), {
        description: 'messaging-service and the sandbox to answer',
        timeoutMs: 60_000,
      });
      await kafka.rpc.request('channels.update', { tenant_id: tenantId, channel_id: channel.id, body: { send_limit_per_second: LIMIT } });
      if (ANSWER_DELAY_MS > 0) {
        await fetch(`${sandboxUrl}/_sandbox/numbers/${channel.phone_number_id}/behaviour`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ answer_delay_ms: ANSWER_DELAY_MS }),
        });
      }
      channels.push({ tenantId, channel });
    }

    const burst = Array.from({ length: MESSAGES }, (_, i) => ({
      tenantId: channels[i % NUMBERS].tenantId,
      data: {
        message_id: newId('msg'),
        channel: 'whatsapp',
        from: null,
        to: `+1202555${String(Math.floor(i / (NUMBERS * PER_RECIPIENT))).padStart(4, '0')}`,
        content: { type: 'text', text: `burst ${i}` },
        origin: 'api',
        accepted_at: new Date().toISOString(),
      },
    }));
    const cpuBefore = instances.map(cpuSeconds);
    const started = Date.now();
    if (MODE === 'kafka') {
      await Promise.all(
        burst.map(({ tenantId, data }) =>
          kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), conversationKey(tenantId, data.to), undefined, { timeoutMs: 30_000 }),
        ),
      );
    } else {
      // The rows OutboundService.recordNew writes for each message, all committed at once.
      await pg.query('BEGIN');
      for (const { tenantId, data } of burst) {
        await pg.query(
          `INSERT INTO messaging.messages (id, tenant_id, direction, "to", type, body, status, status_history) VALUES ($1, $2, 'outbound', $3, 'text', $4, 'sent', $5)`,
          [data.message_id, tenantId, data.to, data.content.text, JSON.stringify([{ status: 'sent', at: data.accepted_at }])],
        );
        await pg.query(`INSERT INTO messaging.send_queue (message_id, tenant_id, recipient, due_at) VALUES ($1, $2, $3, now())`, [data.message_id, tenantId, data.to]);
      }
      await pg.query('COMMIT');
    }
    const published = Date.now();

    const received = async () => (await pg.query(`SELECT count(*)::int AS n FROM sandbox.messages WHERE direction = 'outbound'`)).rows[0].n;
    const progress = setInterval(async () => {
      const recorded = (await pg.query(`SELECT count(*)::int AS n FROM messaging.messages`)).rows[0].n;
      const queued = (await pg.query(`SELECT count(*)::int AS n FROM messaging.send_queue`)).rows[0].n;
      console.error(`[bench] +${((Date.now() - started) / 1000).toFixed(0)} s: ${recorded} recorded, ${queued} queued, ${await received()} at the sandbox`);
    }, 5000);
    try {
      await pollUntil(async () => (await received()) >= MESSAGES || undefined, { description: 'every message at the sandbox', timeoutMs: 300_000, intervalMs: 250 });
    } finally {
      clearInterval(progress);
    }

    const cpu = instances.map((child, i) => cpuSeconds(child) - cpuBefore[i]);
    const numbers = [];
    for (const { channel } of channels) {
      const rows = (await pg.query(`SELECT (extract(epoch from created_at) * 1000)::float8 AS t FROM sandbox.messages WHERE phone_number_id = $1 AND direction = 'outbound' ORDER BY created_at`, [channel.phone_number_id]))
        .rows;
      const s = shape(rows.map((r) => r.t));
      console.log(`number ${channel.phone_number} (limit ${LIMIT}/s): sends per second ${s.perSecond.join(' ')}`);
      numbers.push({ phone_number: channel.phone_number, sends: rows.length, limit_per_second: LIMIT, peak_1s: s.peak_1s, average_per_second: s.average_per_second, seconds: s.seconds });
    }
    const all = (await pg.query(`SELECT (extract(epoch from created_at) * 1000)::float8 AS t FROM sandbox.messages WHERE direction = 'outbound' ORDER BY created_at`)).rows.map((r) => r.t);
    const total = shape(all);
    const duplicates = (await pg.query(`SELECT count(*)::int AS n FROM (SELECT biz_opaque_callback_data FROM sandbox.messages GROUP BY 1 HAVING count(*) > 1) d`)).rows[0].n;
    console.log(
      JSON.stringify({
        messages: MESSAGES,
        mode: MODE,
        numbers: NUMBERS,
        instances: INSTANCES,
        limit_per_second: LIMIT,
        answer_delay_ms: ANSWER_DELAY_MS,
        enqueue_seconds: (published - started) / 1000,
        first_send_after_seconds: Number(((all[0] - published) / 1000).toFixed(2)),
        per_number: numbers,
        total: { peak_1s: total.peak_1s, average_per_second: total.average_per_second, seconds: total.seconds },
        messages_sent_more_than_once: duplicates,
        messaging_cpu_ms_per_message: Number(((cpu.reduce((a, b) => a + b, 0) * 1000) / MESSAGES).toFixed(1)),
        load_average_1m: require('node:os').loadavg()[0],
        status_callbacks: STATUS_CALLBACKS ? 'on' : 'off (no gateway runs to take them)',
      }),
    );
  } finally {
    await pg.end();
    await kafka.close();
    await Promise.all([...instances, sandbox].map(stop));
    await db.drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
