#!/usr/bin/env node
/**
 * Status-callback drain benchmark: how fast one built messaging-service works off a backlog of `whatsapp.webhook`
 * notifications (Cloud API status callbacks: sent, delivered, read for each of its outbound messages). Real Kafka and
 * Postgres, a database and topic namespace of its own (removed afterwards).
 *
 *   node tools/dev/swc-build.mjs && timeout 500 node tools/bench/whatsapp-webhook-drain.cjs [notifications=20000] [numbers=20]
 *
 * The outbound messages (one per three notifications) are written straight into the database, spread over `numbers`
 * business numbers (channels), each already carrying its wamid. The notifications are published first, keyed by
 * phone_number_id as the gateway keys them, with the service stopped, so the whole backlog is waiting when it starts;
 * the clock runs from its readiness (every consumer group joined) until every message reads `read`.
 * BENCH_DIST=<dir> runs the services of another build (e.g. a copy of dist/ made before a change).
 * Prints JSON on the last line.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.resolve(process.env.BENCH_DIST ?? path.join(ROOT, 'dist'));
const { KafkaHarness, pollUntil, testInfra } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { EventPublisher } = require(path.join(DIST, 'libs/kafka/src/index.js'));
const { Topics } = require(path.join(DIST, 'libs/contracts/src/index.js'));
const { freePorts } = require(path.join(ROOT, 'tools/dev/lib/stack.cjs'));
const { prepareServiceEnv, spawnService } = require('./lib/service.cjs');
const { Client } = require('pg');

const NOTIFICATIONS = Number(process.argv[2] ?? 20_000);
const NUMBERS = Number(process.argv[3] ?? 20);
const STATUSES = ['sent', 'delivered', 'read'];
/** Every message gets all three statuses, so the backlog is the multiple of three nearest `notifications`. */
const MESSAGES = Math.round(NOTIFICATIONS / STATUSES.length);

function cpuSeconds(child) {
  const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function statusNotification(phoneNumberId, wamid, status, timestamp) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba_bench',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId },
              statuses: [{ id: wamid, status, timestamp: String(timestamp), recipient_id: '12025550100' }],
            },
          },
        ],
      },
    ],
  });
}

async function main() {
  const ports = await freePorts(['messaging']);
  const { db, namespace, env } = await prepareServiceEnv('wadrain', {
    apps: ['messaging-service'],
    settings: { REDIS_URL: testInfra().redisUrl, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error', PORT: String(ports.messaging) },
    dist: DIST,
  });
  const kafka = await KafkaHarness.start(namespace);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  let child = null;
  try {
    const channels = Array.from({ length: NUMBERS }, (_, n) => ({ id: `chn_bench${n}`, tenantId: `ten_bench${n}`, phoneNumberId: `9000${String(n).padStart(6, '0')}` }));
    for (const c of channels) {
      await pg.query(`INSERT INTO messaging.channels (id, tenant_id, provider, phone_number, phone_number_id, credentials_encrypted) VALUES ($1, $2, 'meta', $3, $4, 'x')`, [
        c.id,
        c.tenantId,
        `+${c.phoneNumberId}`,
        c.phoneNumberId,
      ]);
    }
    const sentAt = new Date(Date.now() - 3600_000).toISOString();
    const messages = Array.from({ length: MESSAGES }, (_, i) => ({ id: `msg_bench${i}`, wamid: `wamid.bench${i}`, channel: channels[i % NUMBERS] }));
    for (let i = 0; i < messages.length; i += 1000) {
      const slice = messages.slice(i, i + 1000);
      await pg.query(
        `INSERT INTO messaging.messages (id, tenant_id, direction, channel_id, "from", "to", type, body, status, status_history, provider_message_id, send_attempts, announced_statuses)
         SELECT m.id, m.tenant_id, 'outbound', m.channel_id, '+1', m.to, 'text', 'hello', 'sent', $2::jsonb, m.wamid, 1, 1
         FROM jsonb_to_recordset($1::jsonb) AS m(id text, tenant_id text, channel_id text, "to" text, wamid text)`,
        [JSON.stringify(slice.map((m, j) => ({ id: m.id, tenant_id: m.channel.tenantId, channel_id: m.channel.id, to: `+1202555${String((i + j) % 10000).padStart(4, '0')}`, wamid: m.wamid }))), JSON.stringify([{ status: 'sent', at: sentAt }])],
      );
    }

    // The backlog, in the order a provider would call back: each message's statuses in turn, interleaved with others'.
    const base = Math.floor(Date.now() / 1000) - 600;
    const records = [];
    for (let s = 0; s < STATUSES.length; s += 1) {
      for (let i = 0; i < messages.length; i += 1) {
        const m = messages[i];
        const data = { provider: 'meta', channel_id: null, raw_body: statusNotification(m.channel.phoneNumberId, m.wamid, STATUSES[s], base + s * 10), received_at: new Date().toISOString() };
        records.push({ topic: Topics.WhatsappWebhook, key: m.channel.phoneNumberId, value: EventPublisher.envelope(Topics.WhatsappWebhook, null, data) });
      }
    }
    for (let i = 0; i < records.length; i += 2000) await kafka.publisher.publish(records.slice(i, i + 2000), { timeoutMs: 60_000 });
    console.error(`[bench] ${records.length} notifications for ${MESSAGES} messages on ${NUMBERS} numbers published; starting messaging-service`);

    const out = process.env.BENCH_LOG_DIR ? fs.openSync(path.join(process.env.BENCH_LOG_DIR, `messaging-service-drain-${Date.now()}.log`), 'w') : 'ignore';
    child = spawnService('messaging-service', env, { stdout: out, dist: DIST });
    child.exited = new Promise((resolve) => child.once('exit', resolve));

    const group = `${namespace}messaging-service.${Topics.WhatsappWebhook}`;
    const admin = kafka.connection.kafka.admin();
    const read = async () => (await pg.query(`SELECT count(*)::int AS n FROM messaging.messages WHERE status = 'read'`)).rows[0].n;
    // The clock starts when the service is ready: every consumer has joined its group, so consuming begins.
    await pollUntil(() => fetch(`http://127.0.0.1:${ports.messaging}/health/ready`).then((r) => r.ok || undefined, () => undefined), {
      description: 'messaging-service ready',
      timeoutMs: 120_000,
      intervalMs: 20,
    });
    const started = Date.now();
    const cpuBefore = cpuSeconds(child);
    const progress = setInterval(() => void read().then((n) => console.error(`[bench] +${((Date.now() - started) / 1000).toFixed(0)} s: ${n}/${MESSAGES} read`)), 5000);
    try {
      await pollUntil(async () => (await read()) >= MESSAGES || undefined, { description: 'every message read', timeoutMs: 420_000, intervalMs: 50 });
    } finally {
      clearInterval(progress);
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSeconds(child) - cpuBefore;
    const announced = (await pg.query(`SELECT sum(announced_statuses)::int AS n, sum(jsonb_array_length(status_history))::int AS h FROM messaging.messages`)).rows[0];
    let lag = null;
    let statusEvents = null;
    if (admin) {
      await admin.connect();
      const offsets = await admin.fetchOffsets({ groupId: group, topics: [`${namespace}${Topics.WhatsappWebhook}`] }).catch(() => null);
      if (offsets) lag = offsets[0].partitions.reduce((sum, p) => sum + Number(p.offset), 0);
      // Every delivered and read announced once (a `sent` was announced before the backlog).
      statusEvents = (await admin.fetchTopicOffsets(`${namespace}${Topics.MessageStatus}`)).reduce((sum, p) => sum + Number(p.high), 0);
      await admin.disconnect();
    }
    console.log(
      JSON.stringify({
        dist: path.relative(ROOT, DIST) || '.',
        notifications: records.length,
        messages: MESSAGES,
        numbers: NUMBERS,
        drain_seconds: Number(seconds.toFixed(2)),
        notifications_per_second: Math.round(records.length / seconds),
        cpu_ms_per_notification: Number(((cpu * 1000) / records.length).toFixed(3)),
        history_entries: announced.h,
        announced_entries: announced.n,
        committed_offsets_sum: lag,
        message_status_events: statusEvents,
        load_average_1m: require('node:os').loadavg()[0],
      }),
    );
  } finally {
    await pg.end();
    await kafka.close();
    if (child) {
      if (child.exitCode === null) child.kill('SIGTERM');
      await child.exited;
    }
    await db.drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
