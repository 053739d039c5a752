import type { INestApplication } from '@nestjs/common';
import { Topics, type AgentChangedEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { KafkaHarness, createTestDatabase, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { agentServiceModule } from '../app.module';
import { AgentServiceConfig } from '../config/agent-service.config';
import { agentServiceDatabase } from '../database/agent-service.database';

/** agent-service running in-process on a database and Kafka namespace of its own, with a client and a probe on agent.changed. */
export interface AgentServiceUnderTest {
  app: INestApplication;
  kafka: KafkaHarness;
  db: TestDatabase;
  /** Every agent.changed the service publishes, from its start. */
  changes: TopicProbe<AgentChangedEvent>;
  close(): Promise<void>;
}

export async function startAgentService(label: string): Promise<AgentServiceUnderTest> {
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  await runMigrations(db.url, agentServiceDatabase);
  const config = loadConfig(AgentServiceConfig, {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  const app = await createServiceApp(agentServiceModule(config), { consumeKafka: true });
  await app.listen(0, '127.0.0.1');
  await app.startAllMicroservices();
  const kafka = await KafkaHarness.start(namespace);
  const changes = await kafka.probe<AgentChangedEvent>(Topics.AgentChanged);
  return {
    app,
    kafka,
    db,
    changes,
    async close() {
      await changes.stop();
      await kafka.close();
      await app.close();
      await db.drop();
    },
  };
}
