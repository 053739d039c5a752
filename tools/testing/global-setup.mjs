// Jest global setup of the integration and end-to-end tiers: makes sure the real Kafka and PostgreSQL are there.
// With a Docker engine, testcontainers starts both (same tests, same assertions); without one, the broker KAFKA_BROKERS
// names, else the local broker (started here if it is not running, and stopped again in teardown), and the machine's
// PostgreSQL are used.
// `npm test` brings the infrastructure up itself and sets PARLEY_INFRA_READY=1, so nothing happens here then.
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Apache Kafka (KRaft, single node) and PostgreSQL in containers, with only the `testcontainers` package.
 * Kafka must advertise the address clients use, so its port is bound to a host port chosen beforehand.
 */
async function startContainers() {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  const kafkaPort = await freePort();
  const [kafka, postgres] = await Promise.all([
    new GenericContainer('apache/kafka:3.9.1')
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${kafkaPort}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        // as the local broker: topics are created explicitly by the services
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      })
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(120_000)
      .start(),
    new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
  ]);
  return {
    containers: [kafka, postgres],
    kafkaBrokers: `${host}:${kafkaPort}`,
    postgresUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
  };
}

export default async function globalSetup() {
  // one run of every project's suites (jest.integration.config.cjs) calls each project's global setup: the first does it
  if (globalThis.__PARLEY_TEST_INFRA_SET_UP__) return;
  globalThis.__PARLEY_TEST_INFRA_SET_UP__ = true;
  // Each suite records the Kafka namespace it creates topics in (libs/testing uniqueKafkaNamespace); the teardown
  // deletes exactly those topics, so a long-lived broker does not pile up partitions (and open files) run after run.
  process.env.PARLEY_TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'parley-test-run-'));
  if (process.env.PARLEY_INFRA_READY === '1') return; // the test runner already brought it up
  if (await dockerAvailable()) {
    const { containers, kafkaBrokers, postgresUrl } = await startContainers();
    process.env.KAFKA_BROKERS = kafkaBrokers;
    process.env.TEST_POSTGRES_URL = postgresUrl;
    globalThis.__PARLEY_CONTAINERS__ = containers;
    return;
  }
  // A broker named in KAFKA_BROKERS is used as it is, as npm start and npm test do (a second checkout's tests beside a
  // run that owns the default port); otherwise the local one, started here if none answers.
  if (process.env.KAFKA_BROKERS) return;
  const { brokers, started } = await startBroker();
  process.env.KAFKA_BROKERS = brokers;
  globalThis.__PARLEY_BROKER_STARTED__ = started;
}
