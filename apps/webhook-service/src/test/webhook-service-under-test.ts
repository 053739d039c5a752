import type { INestApplication } from '@nestjs/common';
import type { CreateWebhookBody, WebhookEndpointRecord } from '@parley/contracts';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { KafkaHarness, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { DataSource } from 'typeorm';
import { webhookServiceModule } from '../app.module';
import { WebhookServiceConfig } from '../config/webhook-service.config';
import { webhookServiceDatabase } from '../database/webhook-service.database';
import { Receiver } from './receiver';

/** A row of the deliveries table, as the specs check it. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  status: string;
  attempt_count: number;
}

/** webhook-service running in-process on a database and Kafka namespace of its own, with a client beside it. */
export interface WebhookServiceUnderTest {
  app: INestApplication;
  kafka: KafkaHarness;
  db: TestDatabase;
  sql: DataSource;
  /** Creates an endpoint over request-reply, as the gateway would. */
  createEndpoint(tenantId: string, body: CreateWebhookBody): Promise<WebhookEndpointRecord & { secret: string }>;
  /** Starts a receiver that `close()` stops. */
  receiver(...args: Parameters<typeof Receiver.start>): Promise<Receiver>;
  /** The deliveries of an event, one per endpoint it went to. */
  deliveriesOf(eventId: string): Promise<DeliveryRow[]>;
  /** Waits until the delivery of an event to an endpoint has the wanted status, and returns it. */
  deliveryReaching(eventId: string, endpointId: string, wanted: string): Promise<DeliveryRow>;
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
  const sql = app.get(DataSource);
  const receivers: Receiver[] = [];
  const deliveriesOf = (eventId: string): Promise<DeliveryRow[]> =>
    sql.query(`SELECT id, endpoint_id, status, attempt_count FROM deliveries WHERE event_id = $1 ORDER BY id`, [eventId]);
  return {
    app,
    kafka,
    db,
    sql,
    createEndpoint: (tenantId, body) => kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body }),
    async receiver(...args) {
      const receiver = await Receiver.start(...args);
      receivers.push(receiver);
      return receiver;
    },
    deliveriesOf,
    deliveryReaching: (eventId, endpointId, wanted) =>
      pollUntil(
        async () => {
          const row = (await deliveriesOf(eventId)).find((d) => d.endpoint_id === endpointId);
          return row?.status === wanted ? row : undefined;
        },
        { description: `delivery of ${eventId} to ${endpointId} to be ${wanted}`, timeoutMs: 20_000 },
      ),
    async close() {
      await kafka.close();
      await app.close();
      await db.drop();
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}
