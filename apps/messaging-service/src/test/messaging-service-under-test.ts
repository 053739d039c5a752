import type { INestApplication } from '@nestjs/common';
import { Topics, type MessageInboundEvent, type MessageStatusEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { KafkaHarness, createTestDatabase, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { messagingServiceModule } from '../app.module';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { messagingServiceDatabase } from '../database/messaging-service.database';

/** messaging-service running in-process on a database and Kafka namespace of its own, with a client and probes beside it. */
export interface MessagingServiceUnderTest {
  app: INestApplication;
  kafka: KafkaHarness;
  db: TestDatabase;
  sql: DataSource;
  /** What the service publishes, from its start: message.status, message.inbound and the WhatsApp webhook dead letters. */
  statuses: TopicProbe<MessageStatusEvent>;
  inbound: TopicProbe<MessageInboundEvent>;
  deadLetters: TopicProbe<unknown>;
  close(): Promise<void>;
}

/**
 * Boots the service the way integration specs need it: quiet logs, a fresh encryption key; `env` points it at the
 * specs' fake Cloud API servers and overrides any setting.
 */
export async function startMessagingService(label: string, env: Record<string, string> = {}): Promise<MessagingServiceUnderTest> {
  const db = await createTestDatabase(label);
  const namespace = uniqueKafkaNamespace(label);
  await runMigrations(db.url, messagingServiceDatabase);
  const config = loadConfig(MessagingServiceConfig, {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_TOPIC_PREFIX: namespace,
    PORT: '0',
    LOG_LEVEL: 'warn',
    GRAPH_API_VERSION: 'v21.0',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
  const app = await createServiceApp(messagingServiceModule(config), { consumeKafka: true });
  await app.listen(0, '127.0.0.1');
  await app.startAllMicroservices();
  const kafka = await KafkaHarness.start(namespace);
  const [statuses, inbound, deadLetters] = await Promise.all([
    kafka.probe<MessageStatusEvent>(Topics.MessageStatus),
    kafka.probe<MessageInboundEvent>(Topics.MessageInbound),
    kafka.probe<unknown>(`${Topics.WhatsappWebhook}.dlq`),
  ]);
  return {
    app,
    kafka,
    db,
    sql: app.get(DataSource),
    statuses,
    inbound,
    deadLetters,
    async close() {
      await Promise.all([statuses.stop(), inbound.stop(), deadLetters.stop()]);
      await kafka.close();
      await app.close();
      await db.drop();
    },
  };
}
