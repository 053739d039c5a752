import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { KafkaHarness, createTestDatabase, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { DataSource } from 'typeorm';
import { webhookServiceModule } from '../app.module';
import { WebhookServiceConfig } from '../config/webhook-service.config';
import { webhookServiceDatabase } from '../database/webhook-service.database';

/** webhook-service running in-process on a database and Kafka namespace of its own, with a client beside it. */
export interface WebhookServiceUnderTest {
  app: INestApplication;
  kafka: KafkaHarness;
  db: TestDatabase;
  sql: DataSource;
  close(): Promise<void>;
}

/** Boots the service the way integration specs need it: fast retries, quiet logs; `env` overrides any setting. */
export async function startWebhookService(label: string, env: Record<string, string> = {}): Promise<WebhookServiceUnderTest> {
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  await runMigrations(db.url, webhookServiceDatabase);
  const config = loadConfig(WebhookServiceConfig, {
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    PORT: '0',
    LOG_LEVEL: 'error',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    WEBHOOK_TIMEOUT_MS: '5000',
    ...env,
  });
  const app = await createServiceApp(webhookServiceModule(config), { consumeKafka: true });
  await app.listen(0, '127.0.0.1');
  await app.startAllMicroservices();
  const kafka = await KafkaHarness.start(namespace);
  return {
    app,
    kafka,
    db,
    sql: app.get(DataSource),
    async close() {
      await kafka.close();
      await app.close();
      await db.drop();
    },
  };
}
