// Jest global setup of the integration and end-to-end tiers: makes sure the real Kafka and PostgreSQL are there.
// With a Docker engine, testcontainers starts both (same tests, same assertions); without one, the local broker
// (started here if it is not running, and stopped again in teardown) and the machine's PostgreSQL are used.
import { startBroker } from '../kafka/kafka.mjs';

async function dockerAvailable() {
  if (process.env.PARLEY_TEST_INFRA === 'local') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

export default async function globalSetup() {
  if (process.env.PARLEY_INFRA_READY === '1') return; // the test runner already brought it up
  if (await dockerAvailable()) {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const [kafka, postgres] = await Promise.all([
      new KafkaContainer('confluentinc/cp-kafka:7.7.1').withKraft().start(),
      new PostgreSqlContainer('postgres:15-alpine').start(),
    ]);
    process.env.KAFKA_BROKERS = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
    process.env.TEST_POSTGRES_URL = postgres.getConnectionUri().replace(/\/[^/]*$/, '/postgres');
    globalThis.__PARLEY_CONTAINERS__ = [kafka, postgres];
    return;
  }
  const { brokers, started } = await startBroker();
  process.env.KAFKA_BROKERS = brokers;
  globalThis.__PARLEY_BROKER_STARTED__ = started;
}
