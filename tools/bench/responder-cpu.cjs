#!/usr/bin/env node
/**
 * CPU per inbound message of the built responder-service alone (issue 8): `message.inbound` events published to
 * Kafka as messaging-service does, answered by the deterministic skills engine; counts the responder process's CPU
 * seconds from the first publish until every message is handled (its outcome row committed and published). Unlike the
 * end-to-end `npm run bench -- --scenario inbound`, no gateway or messaging-service stands in front of it, so the figure
 * does not move with their intake on a loaded machine. Real Kafka, real PostgreSQL.
 *
 *   node tools/dev/swc-build.mjs && timeout 300 node tools/bench/responder-cpu.cjs [messages=1000] [rate/s=200] [customers=500]
 *
 * Prints the numbers as JSON on the last line. BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=tmp/prof" profiles it.
 */
'use strict';
const path = require('node:path');
const { readFileSync } = require('node:fs');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const { prepareServiceEnv, spawnService } = require('./lib/service.cjs');
const { KafkaHarness, pollUntil } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { EventPublisher } = require(path.join(DIST, 'libs/kafka/src/index.js'));
const { Topics, conversationKey, newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));

const MESSAGES = Number(process.argv[2] ?? 1000);
const RATE = Number(process.argv[3] ?? 200);
const CUSTOMERS = Number(process.argv[4] ?? 500);
const TENANT = 'ten_responder_bench';
const BUSINESS = '+4930000009';
const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** CPU seconds (user + system) a process has used: fields 14 and 15 of /proc/<pid>/stat, in USER_HZ (100). */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function inbound(i, run) {
  const now = new Date().toISOString();
  const from = `+1415${String(5_000_000 + ((i * 7919) % CUSTOMERS))}`;
  const data = {
    message_id: newId('msg'),
    channel: 'whatsapp',
    channel_id: 'chn_01JBENCH00000000000000000',
    from_user_id: null,
    from,
    to: BUSINESS,
    text: `bench ${run} ${i} what are your opening hours?`,
    type: 'text',
    provider_message_id: `wamid.bench${run}${i}`,
    sent_at: now,
    received_at: now,
    channel_agent: null,
    contact_name: 'Bench Customer',
  };
  return { envelope: EventPublisher.envelope(Topics.MessageInbound, TENANT, data), key: conversationKey(TENANT, from) };
}

/** Publishes `count` messages at `rate`/s and waits until the responder has handled all of them. */
async function round(kafka, db, run, count, rate) {
  const start = Date.now();
  const publishes = [];
  for (let i = 0; i < count; i += 1) {
    const due = start + (i * 1000) / rate;
    if (due > Date.now()) await delay(due - Date.now());
    const { envelope, key } = inbound(i, run);
    publishes.push(kafka.publisher.publishEvent(envelope, key, undefined, { timeoutMs: 30_000 }));
  }
  await Promise.all(publishes);
  await pollUntil(
    async () => {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM responder.processed_messages WHERE published_at IS NOT NULL AND events::text LIKE $1`, [`%bench ${run} %`]);
      return n >= count;
    },
    { description: `${count} messages handled`, timeoutMs: 240_000, intervalMs: 100 },
  );
  return (Date.now() - start) / 1000;
}

async function main() {
  const { db, namespace, env } = await prepareServiceEnv('respbench', { apps: ['responder-service'], settings: { PORT: '0', LOG_LEVEL: 'warn' } });
  const child = spawnService('responder-service', env, { nodeArgs });
  const kafka = await KafkaHarness.start(namespace);
  const { Client } = require('pg');
  const sql = new Client({ connectionString: db.url });
  await sql.connect();
  try {
    const now = new Date().toISOString();
    const agent = {
      id: newId('agt'),
      name: 'support',
      instruction: 'You answer questions of the bench customers.',
      greeting: 'Hello from the bench!',
      skills: ['faq_responder'],
      faqs: [{ question: 'What are your opening hours?', answer: 'We open at 8:00.' }],
      booking: null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    const change = { tenant_id: TENANT, name: agent.name, agent_id: agent.id, version: 1, agent };
    await kafka.publisher.publishEvent(EventPublisher.envelope(Topics.AgentChanged, TENANT, change), `${TENANT}:${agent.name}`);
    await pollUntil(
      async () => {
        const rows = await sql.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'responder' AND table_name = 'agents'`);
        if (rows.rowCount === 0) return false;
        return (await sql.query(`SELECT 1 FROM responder.agents WHERE tenant_id = $1`, [TENANT])).rowCount > 0;
      },
      { description: 'the agent in the read model', timeoutMs: 120_000 },
    );
    const query = async (text, params) => (await sql.query(text, params)).rows;

    await round(kafka, { query }, 'warm', Math.min(200, MESSAGES), Math.min(RATE, 100));
    const cpuBefore = cpuSecondsOf(child.pid);
    const seconds = await round(kafka, { query }, 'measured', MESSAGES, RATE);
    const cpu = cpuSecondsOf(child.pid) - cpuBefore;
    console.log(
      JSON.stringify({
        messages: MESSAGES,
        offered_per_second: RATE,
        seconds: Number(seconds.toFixed(2)),
        handled_per_second: Math.round(MESSAGES / seconds),
        responder_cpu_seconds: Number(cpu.toFixed(2)),
        responder_cpu_ms_per_message: Number(((cpu * 1000) / MESSAGES).toFixed(2)),
        load_average_1m: Number(require('node:os').loadavg()[0].toFixed(1)),
      }),
    );
  } finally {
    await sql.end();
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    await kafka.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
