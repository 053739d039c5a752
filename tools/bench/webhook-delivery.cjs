#!/usr/bin/env node
/**
 * Delivery benchmark (issue 6): deliveries per second from the built webhook-service to fast local receivers, and the
 * healthy endpoints' rate again with a dead endpoint (never answers; every attempt runs into the time-out) beside them.
 * Real Kafka, real Postgres, real HTTP on 127.0.0.1.
 *
 *   node tools/dev/swc-build.mjs && timeout 300 node tools/bench/webhook-delivery.cjs [events=1000] [healthy endpoints=4]
 *
 * Prints the numbers as JSON on the last line.
 */
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const { createServer } = require('node:http');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const { KafkaHarness, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { EventPublisher } = require(path.join(DIST, 'libs/kafka/src/index.js'));
const { Topics, conversationKey, newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));

const EVENTS = Number(process.argv[2] ?? 1000);
const HEALTHY = Number(process.argv[3] ?? 4);

/** A receiver answering 204 at once (or never, when dead), counting requests. */
async function receiver(dead = false) {
  const state = { count: 0, url: '' };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.count += 1;
      if (!dead) res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${server.address().port}/hook`;
  state.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return state;
}

async function run(kafka, tenantId, receivers) {
  const before = receivers.map((r) => r.count);
  const publishes = [];
  const started = Date.now();
  for (let i = 0; i < EVENTS; i += 1) {
    const from = `+49151000${String(i % 200).padStart(4, '0')}`;
    const data = {
      event: 'message.received',
      channel: 'whatsapp',
      from,
      message: `message ${i}`,
      tenant_id: tenantId,
      agent_response: null,
      message_id: newId('msg'),
      reply_message_id: null,
      agent: null,
      type: 'text',
      received_at: new Date().toISOString(),
    };
    publishes.push(kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageReceived, tenantId, data), conversationKey(tenantId, from), undefined, { timeoutMs: 30_000 }));
  }
  await Promise.all(publishes);
  const published = Date.now();
  await pollUntil(() => receivers.every((r, i) => r.count - before[i] >= EVENTS), { description: 'every healthy delivery', timeoutMs: 240_000, intervalMs: 20 });
  const seconds = (Date.now() - started) / 1000;
  return { deliveries: EVENTS * receivers.length, seconds: Number(seconds.toFixed(2)), per_second: Math.round((EVENTS * receivers.length) / seconds), publish_seconds: (published - started) / 1000 };
}

async function main() {
  const db = await createTestDatabase('whbench');
  const namespace = uniqueKafkaNamespace('whbench');
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    PORT: '0',
    LOG_LEVEL: 'error',
    WEBHOOK_TIMEOUT_MS: '5000',
  };
  execFileSync(process.execPath, [path.join(DIST, 'apps/webhook-service/src/migrate.js')], { env, stdio: 'inherit' });
  const child = spawn(process.execPath, [path.join(DIST, 'apps/webhook-service/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const kafka = await KafkaHarness.start(namespace);
  const create = (tenantId, url) =>
    pollUntil(() => kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body: { url } }, { timeoutMs: 5000 }).catch(() => undefined), {
      description: 'webhook-service to answer',
      timeoutMs: 60_000,
    });

  // Warm-up: connections, topics and the consumer group settle before anything is timed.
  const warm = await receiver();
  await create('ten_warm', warm.url);
  const warmRun = await run(kafka, 'ten_warm', [warm]);

  const healthy = await Promise.all(Array.from({ length: HEALTHY }, () => receiver()));
  for (const r of healthy) await create('ten_bench', r.url);
  const alone = await run(kafka, 'ten_bench', healthy);

  const dead = await receiver(true);
  await create('ten_bench', dead.url);
  const withDead = await run(kafka, 'ten_bench', healthy);

  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await kafka.close();
  for (const r of [warm, ...healthy, dead]) r.close();
  await db.drop();
  console.log(
    JSON.stringify({
      events_per_run: EVENTS,
      healthy_endpoints: HEALTHY,
      warm_up: warmRun,
      healthy_alone: alone,
      healthy_beside_a_dead_endpoint: { ...withDead, dead_endpoint_attempts: dead.count },
    }),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
