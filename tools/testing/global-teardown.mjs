import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { stopBroker } from '../kafka/kafka.mjs';

const require = createRequire(import.meta.url);
const { deleteNamespaceTopics } = require('./kafka-namespaces.cjs');

/** Deletes the topics of the namespaces this run's suites created that are still there (see global-setup.mjs). */
async function deleteRunTopics() {
  const dir = process.env.PARLEY_TEST_RUN_DIR;
  const file = dir && join(dir, 'namespaces');
  if (!file || !existsSync(file)) return;
  const namespaces = [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))];
  rmSync(dir, { recursive: true, force: true });
  await deleteNamespaceTopics(namespaces).catch((err) => process.stderr.write(`[test teardown] could not delete this run's topics: ${err?.message ?? err}\n`));
}

export default async function globalTeardown() {
  if (globalThis.__PARLEY_TEST_INFRA_TORN_DOWN__) return; // as the setup: once per run
  globalThis.__PARLEY_TEST_INFRA_TORN_DOWN__ = true;
  await deleteRunTopics();
  for (const container of globalThis.__PARLEY_CONTAINERS__ ?? []) await container.stop();
  if (globalThis.__PARLEY_BROKER_STARTED__) await stopBroker();
}
