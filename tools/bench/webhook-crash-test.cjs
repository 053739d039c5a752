#!/usr/bin/env node
/**
 * Crash test (issue 6): SIGKILLs the built webhook-service repeatedly while EVENTS message.received events are being
 * delivered to a receiver that fails a third of the time, then checks that every event arrived (a 2xx answered for
 * it) and that duplicates share their webhook-id. Real Kafka, real Postgres, real HTTP on 127.0.0.1.
 *
 *   node tools/dev/swc-build.mjs && timeout 400 node tools/bench/webhook-crash-test.cjs [events=1000] [kills=6]
 *
 * Exits 1 when an event is missing. Prints the counts as JSON on the last line.
 */
'use strict';
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');
const { KafkaHarness, createEndpoint, messageReceived, pollUntil, prepareWebhookService, spawnWebhookService } = require('./lib/webhook-service.cjs');

const EVENTS = Number(process.argv[2] ?? 1000);
const KILLS = Number(process.argv[3] ?? 6);
const CUSTOMERS = 50;

async function main() {
  const { db, namespace, env } = await prepareWebhookService('whcrash', {
    // Many short retries: with a third of attempts failing, a delivery must not run out of them.
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
    // The lease after a crash is the time-out plus 30 s; keep it short.
    WEBHOOK_TIMEOUT_MS: '2000',
  });

  let secret = '';
  const answered = new Map(); // webhook-id → 2xx answers
  let requests = 0;
  let failed = 0;
  let badSignatures = 0;
  const bodies = new Map(); // webhook-id → the body first seen with it
  let differingBodies = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        new Webhook(secret).verify(body, req.headers);
      } catch {
        badSignatures += 1;
      }
      if (Math.random() < 1 / 3) {
        failed += 1;
        res.writeHead(500).end('unlucky');
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (!bodies.has(id)) bodies.set(id, body);
      else if (bodies.get(id) !== body) differingBodies += 1;
      answered.set(id, (answered.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/hook`;

  let child;
  let restarts = 0;
  const start = () => {
    child = spawnWebhookService(env);
  };
  start();

  const kafka = await KafkaHarness.start(namespace);
  const tenantId = 'ten_crash';
  const endpoint = await createEndpoint(kafka, tenantId, url);
  secret = endpoint.secret;

  const ids = [];
  const publishing = (async () => {
    for (let i = 0; i < EVENTS; i += 50) {
      const batch = [];
      for (let j = i; j < Math.min(EVENTS, i + 50); j += 1) {
        const from = `+49151000${String(j % CUSTOMERS).padStart(4, '0')}`;
        const { envelope, key } = messageReceived(tenantId, from, `message ${j}`);
        ids.push(envelope.id);
        batch.push(kafka.publisher.publishEvent(envelope, key, undefined, { timeoutMs: 30_000 }));
      }
      await Promise.all(batch);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const started = Date.now();
  for (let k = 0; k < KILLS; k += 1) {
    await new Promise((r) => setTimeout(r, 1500 + Math.random() * 2000));
    const dying = child;
    const exited = new Promise((r) => dying.once('exit', r));
    dying.kill('SIGKILL');
    await exited;
    restarts += 1;
    start();
  }
  await publishing;

  const missing = () => ids.filter((id) => !answered.has(id));
  await pollUntil(() => missing().length === 0, { description: 'every event to be answered 2xx', timeoutMs: 240_000, intervalMs: 500 }).catch(() => undefined);
  const seconds = (Date.now() - started) / 1000;

  const duplicates = [...answered.values()].filter((n) => n > 1).length;
  const result = {
    events: EVENTS,
    kills: restarts,
    delivered: ids.length - missing().length,
    missing: missing().length,
    requests,
    failed_on_purpose: failed,
    bad_signatures: badSignatures,
    unknown_webhook_ids: [...answered.keys()].filter((id) => !ids.includes(id)).length,
    same_id_different_body: differingBodies,
    events_delivered_more_than_once: duplicates,
    extra_2xx_deliveries: [...answered.values()].reduce((a, n) => a + n - 1, 0),
    seconds: Math.round(seconds),
  };

  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await kafka.close();
  server.closeAllConnections();
  server.close();
  await db.drop();
  console.log(JSON.stringify(result));
  process.exit(result.missing === 0 && result.bad_signatures === 0 && result.unknown_webhook_ids === 0 && differingBodies === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
