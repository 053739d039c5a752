'use strict';
// A built service run alone by a benchmark, on a database and Kafka namespace of its own: what every such benchmark
// set up by hand before (the environment, the migrations, the child process with the services' V8 flags).
const { spawn, execFileSync } = require('node:child_process');
const path = require('node:path');
// The V8 flags every service runs with (npm start, the end-to-end tests, docker/).
const { SERVICE_NODE_FLAGS } = require('../../dev/lib/stack.cjs');

const DIST = path.resolve(__dirname, '../../../dist');

/**
 * A fresh database and Kafka namespace named after `label`, the services' environment on them (`settings` add to it
 * or override it), and the migrations of each of `apps` run on that database. `dist` is the build to use, when a
 * benchmark compares another one (BENCH_DIST).
 */
async function prepareServiceEnv(label, { apps, settings = {}, dist = DIST }) {
  const { createTestDatabase, testInfra, uniqueKafkaNamespace } = require(path.join(dist, 'libs/testing/src/index.js'));
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    ...settings,
  };
  for (const app of apps) execFileSync(process.execPath, [path.join(dist, `apps/${app}/src/migrate.js`)], { env, stdio: 'inherit' });
  return { db, namespace, env };
}

/** Starts the built `app` (its stderr shown; its stdout to `stdout`, a file descriptor, or dropped); `nodeArgs` go to node, e.g. profiling flags. */
function spawnService(app, env, { nodeArgs = [], stdout = 'ignore', dist = DIST } = {}) {
  return spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, path.join(dist, `apps/${app}/src/main.js`)], { env, stdio: ['ignore', stdout, 'inherit'] });
}

module.exports = { prepareServiceEnv, spawnService };
