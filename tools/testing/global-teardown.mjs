import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { stopBroker } from '../kafka/kafka.mjs';

const require = createRequire(import.meta.url);

/** Deletes the topics of the namespaces this run's suites created (see global-setup.mjs). */
async function deleteRunTopics() {
  const dir = process.env.PARLEY_TEST_RUN_DIR;
  const file = dir && join(dir, 'namespaces');
  if (!file || !existsSync(file)) return;
  const namespaces = [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))];
  rmSync(dir, { recursive: true, force: true });
  if (namespaces.length === 0) return;
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => namespaces.some((ns) => t.startsWith(ns)));
    for (let i = 0; i < topics.length; i += 100) await admin.deleteTopics({ topics: topics.slice(i, i + 100), timeout: 30000 });
  } catch (err) {
    process.stderr.write(`[test teardown] could not delete this run's topics: ${err?.message ?? err}\n`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export default async function globalTeardown() {
  await deleteRunTopics();
  for (const container of globalThis.__PARLEY_CONTAINERS__ ?? []) await container.stop();
  if (globalThis.__PARLEY_BROKER_STARTED__) await stopBroker();
}
