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
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');
const { KafkaHarness, createEndpoint, messageReceived, pollUntil, prepareWebhookService, spawnWebhookService } = require('./lib/webhook-service.cjs');

const EVENTS = Number(process.argv[2] ?? 1000);
const HEALTHY = Number(process.argv[3] ?? 4);
/** Extra node flags for the service, e.g. BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=tmp/prof" to profile it. */
const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

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

/** CPU seconds (user + system) a process has used: fields 14 and 15 of /proc/<pid>/stat, in USER_HZ (100). */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function run(kafka, tenantId, receivers, pid) {
  const before = receivers.map((r) => r.count);
  const cpuBefore = cpuSecondsOf(pid);
  const publishes = [];
  const started = Date.now();
  for (let i = 0; i < EVENTS; i += 1) {
    const from = `+49151000${String(i % 200).padStart(4, '0')}`;
    const { envelope, key } = messageReceived(tenantId, from, `message ${i}`);
    publishes.push(kafka.publisher.publishEvent(envelope, key, undefined, { timeoutMs: 30_000 }));
  }
  await Promise.all(publishes);
  const published = Date.now();
  await pollUntil(() => receivers.every((r, i) => r.count - before[i] >= EVENTS), { description: 'every healthy delivery', timeoutMs: 240_000, intervalMs: 20 });
  const seconds = (Date.now() - started) / 1000;
  const cpuMs = (cpuSecondsOf(pid) - cpuBefore) * 1000;
  return {
    deliveries: EVENTS * receivers.length,
    seconds: Number(seconds.toFixed(2)),
    per_second: Math.round((EVENTS * receivers.length) / seconds),
    publish_seconds: (published - started) / 1000,
    // the service's CPU per healthy delivery (a dead endpoint's attempts included in the third round)
    cpu_ms_per_delivery: Number((cpuMs / (EVENTS * receivers.length)).toFixed(3)),
  };
}

async function main() {
  const { db, namespace, env } = await prepareWebhookService('whbench', { WEBHOOK_TIMEOUT_MS: '5000' });
  const child = spawnWebhookService(env, nodeArgs);
  const kafka = await KafkaHarness.start(namespace);

  // Warm-up: connections, topics and the consumer group settle before anything is timed.
  const warm = await receiver();
  await createEndpoint(kafka, 'ten_warm', warm.url);
  const warmRun = await run(kafka, 'ten_warm', [warm], child.pid);

  const healthy = await Promise.all(Array.from({ length: HEALTHY }, () => receiver()));
  for (const r of healthy) await createEndpoint(kafka, 'ten_bench', r.url);
  const alone = await run(kafka, 'ten_bench', healthy, child.pid);

  const dead = await receiver(true);
  await createEndpoint(kafka, 'ten_bench', dead.url);
  const withDead = await run(kafka, 'ten_bench', healthy, child.pid);

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
