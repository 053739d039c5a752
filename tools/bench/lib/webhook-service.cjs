'use strict';
// What the webhook-service benchmarks share: the built webhook-service as a child process on a database and Kafka
// namespace of its own, endpoint creation once it answers, and message.received events as responder-service sends them.
const { spawn, execFileSync } = require('node:child_process');
// The V8 flags every service runs with (npm start, the end-to-end tests, docker/).
const { SERVICE_NODE_FLAGS } = require('../../dev/lib/stack.cjs');
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../../dist');
const { KafkaHarness, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { EventPublisher } = require(path.join(DIST, 'libs/kafka/src/index.js'));
const { Topics, conversationKey, newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));

const MAIN = path.join(DIST, 'apps/webhook-service/src/main.js');

/** A fresh database (migrated) and Kafka namespace, and the service's environment on them; `settings` add to it. */
async function prepareWebhookService(label, settings) {
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    PORT: '0',
    LOG_LEVEL: 'error',
    ...settings,
  };
  execFileSync(process.execPath, [path.join(DIST, 'apps/webhook-service/src/migrate.js')], { env, stdio: 'inherit' });
  return { db, namespace, env };
}

/** Starts the built service (its stderr shown); `nodeArgs` go to node, e.g. profiling flags. */
function spawnWebhookService(env, nodeArgs = []) {
  return spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, MAIN], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Creates an endpoint, retrying until the (starting) service answers. */
function createEndpoint(kafka, tenantId, url) {
  return pollUntil(() => kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body: { url } }, { timeoutMs: 5000 }).catch(() => undefined), {
    description: 'webhook-service to answer',
    timeoutMs: 60_000,
  });
}

/** A message.received envelope, and the key it is published on (the conversation's). */
function messageReceived(tenantId, from, message) {
  const data = {
    event: 'message.received',
    channel: 'whatsapp',
    from,
    message,
    tenant_id: tenantId,
    agent_response: null,
    message_id: newId('msg'),
    reply_message_id: null,
    agent: null,
    type: 'text',
    received_at: new Date().toISOString(),
  };
  return { envelope: EventPublisher.envelope(Topics.MessageReceived, tenantId, data), key: conversationKey(tenantId, from) };
}

module.exports = { KafkaHarness, pollUntil, prepareWebhookService, spawnWebhookService, createEndpoint, messageReceived };
