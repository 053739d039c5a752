import type { INestApplication, Type } from '@nestjs/common';
import type { EventEnvelope, Problem, RpcPattern, RpcRequest, RpcResponse } from '@parley/contracts';
import { RpcProblemError } from '@parley/kafka';
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
  /** A request-reply call as the gateway makes it. */
  call<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<RpcResponse<P>>;
  /** The problem a call answers with (fails the test when it succeeds). */
  problemOf<P extends RpcPattern>(pattern: P, request: RpcRequest<P>): Promise<Problem>;
  /** Publishes events as their producers would, keyed as they key them. */
  publish(...events: { envelope: EventEnvelope; key: string }[]): Promise<void>;
  /** Another instance of the service on the same database and Kafka namespace (same consumer group); closed with this one. */
  startSecondInstance(): Promise<INestApplication>;
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
    const settings = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      KAFKA_FETCH_MAX_WAIT_MS: TEST_FETCH_MAX_WAIT_MS,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    };
    const boot = async (config: C) => {
      const instance = await createServiceApp(service.module(config), { consumeKafka: true });
      await instance.listen(0, '127.0.0.1');
      await instance.startAllMicroservices();
      return instance;
    };
    const config = loadConfig(service.Config, settings);
    app = await boot(config);
    const harness = (kafka = await KafkaHarness.start(namespace));
    const call = <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => harness.rpc.request(pattern, request);
    return {
      app,
      config,
      kafka: harness,
      db,
      sql: app.get(DataSource),
      call,
      async problemOf(pattern, request) {
        const outcome = await call(pattern, request).then(
          (answer) => ({ answer }),
          (err: unknown) => ({ err }),
        );
        if (!('err' in outcome)) throw new Error(`${pattern} answered ${JSON.stringify(outcome.answer)}, not a problem`);
        if (!(outcome.err instanceof RpcProblemError)) throw outcome.err;
        return outcome.err.problem;
      },
      publish: (...events) => harness.publisher.publish(events.map(({ envelope, key }) => ({ topic: envelope.type, key, value: envelope }))),
      async startSecondInstance() {
        const second = await boot(loadConfig(service.Config, settings));
        stops.push(() => second.close());
        return second;
      },
      onClose: (stop) => void stops.push(stop),
      close,
    };
  } catch (err) {
    // A boot that failed half-way leaves nothing running behind the failing spec.
    await close().catch(() => undefined);
    throw err;
  }
}
