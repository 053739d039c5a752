'use strict';
// What the webhook-service benchmarks share: the built webhook-service as a child process on a database and Kafka
// namespace of its own, endpoint creation once it answers, and message.received events as responder-service sends them.
const path = require('node:path');
const { prepareServiceEnv, spawnService } = require('./service.cjs');
const { messageReceived } = require('./events.cjs');

const DIST = path.resolve(__dirname, '../../../dist');
const { KafkaHarness, pollUntil } = require(path.join(DIST, 'libs/testing/src/index.js'));

/** A fresh database (migrated) and Kafka namespace, and the service's environment on them; `settings` add to it. */
function prepareWebhookService(label, settings) {
  return prepareServiceEnv(label, { apps: ['webhook-service'], settings: { PORT: '0', LOG_LEVEL: 'error', ...settings } });
}

/** Starts the built service (its stderr shown); `nodeArgs` go to node, e.g. profiling flags. */
function spawnWebhookService(env, nodeArgs = []) {
  return spawnService('webhook-service', env, { nodeArgs });
}

/** Creates an endpoint, retrying until the (starting) service answers. */
function createEndpoint(kafka, tenantId, url) {
  return pollUntil(() => kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body: { url } }, { timeoutMs: 5000 }).catch(() => undefined), {
    description: 'webhook-service to answer',
    timeoutMs: 60_000,
  });
}

module.exports = { KafkaHarness, pollUntil, prepareWebhookService, spawnWebhookService, createEndpoint, messageReceived };
