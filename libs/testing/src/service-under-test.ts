import type { INestApplication, Type } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations, type BaseConfig, type ServiceDatabase } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { TEST_FETCH_MAX_WAIT_MS, createTestDatabase, testInfra, uniqueKafkaNamespace, type TestDatabase } from './infra';
import { KafkaHarness } from './kafka-harness';

/** What a service's integration specs boot: its database, its configuration class and its root module. */
export interface ServiceDefinition<C extends BaseConfig> {
  database: ServiceDatabase;
  Config: new () => C;
  module: (config: C) => Type<unknown>;
}

/** A service running in-process on a database and Kafka namespace of its own, with a Kafka client beside it. */
export interface ServiceUnderTest<C extends BaseConfig = BaseConfig> {
  app: INestApplication;
  config: C;
  kafka: KafkaHarness;
  db: TestDatabase;
  sql: DataSource;
  /** Runs `stop` first when the service closes (last registered, first run): probes, receivers, fakes beside it. */
  onClose(stop: () => Promise<void>): void;
  /** Stops what was registered with onClose, the Kafka client, the service, then drops its database. */
  close(): Promise<void>;
}

/**
 * The one way every service's integration specs boot it: a fresh database migrated to the service's schema, a
 * Kafka namespace of its own, the Nest app listening on a free port with its consumers running, and a `KafkaHarness`
 * in the same namespace. `env` holds the service's test settings and overrides any default here.
 */
export async function startServiceUnderTest<C extends BaseConfig>(
  label: string,
  service: ServiceDefinition<C>,
  env: Record<string, string> = {},
): Promise<ServiceUnderTest<C>> {
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  const stops: (() => Promise<void>)[] = [];
  let app: INestApplication | undefined;
  let kafka: KafkaHarness | undefined;
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await kafka?.close();
    await app?.close();
    await db.drop();
  };
  try {
    await runMigrations(db.url, service.database);
    const config = loadConfig(service.Config, {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      KAFKA_FETCH_MAX_WAIT_MS: TEST_FETCH_MAX_WAIT_MS,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    });
    app = await createServiceApp(service.module(config), { consumeKafka: true });
    await app.listen(0, '127.0.0.1');
    await app.startAllMicroservices();
    kafka = await KafkaHarness.start(namespace);
    return { app, config, kafka, db, sql: app.get(DataSource), onClose: (stop) => void stops.push(stop), close };
  } catch (err) {
    // A boot that failed half-way leaves nothing running behind the failing spec.
    await close().catch(() => undefined);
    throw err;
  }
}
