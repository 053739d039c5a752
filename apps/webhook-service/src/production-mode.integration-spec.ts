import type { INestApplication } from '@nestjs/common';
import { Topics, conversationKey, newId, type CreateWebhookBody, type MessageStatusData } from '@parley/contracts';
import { EventPublisher, RpcProblemError } from '@parley/kafka';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { KafkaHarness, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { DataSource } from 'typeorm';
import { webhookServiceModule } from './app.module';
import { WebhookServiceConfig } from './config/webhook-service.config';
import { webhookServiceDatabase } from './database/webhook-service.database';
import { generateSecret } from './deliveries/signing';
import { Receiver } from './test/receiver';

describe('webhook-service in production mode (NODE_ENV=production)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let kafka: KafkaHarness;
  let sql: DataSource;
  let local: Receiver;

  beforeAll(async () => {
    db = await createTestDatabase('webhooksprod');
    const namespace = uniqueKafkaNamespace('webhooksprod');
    await runMigrations(db.url, webhookServiceDatabase);
    const config = loadConfig(WebhookServiceConfig, {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEBHOOK_RETRY_SCHEDULE: '60',
    });
    app = await createServiceApp(webhookServiceModule(config), { consumeKafka: true });
    await app.listen(0, '127.0.0.1');
    await app.startAllMicroservices();
    kafka = await KafkaHarness.start(namespace);
    sql = app.get(DataSource);
    local = await Receiver.start();
  });

  afterAll(async () => {
    await kafka?.close();
    await app?.close();
    await local?.close();
    await db?.drop();
  });

  const urlProblem = async (request: Promise<unknown>) => {
    const err = await request.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcProblemError);
    const problem = (err as RpcProblemError).problem;
    expect(problem.status).toBe(400);
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors![0].field).toBe('url');
    return problem.errors![0].message;
  };
  const create = (body: CreateWebhookBody) => kafka.rpc.request('webhooks.create', { tenant_id: 'ten_P', body });

  it('refuses http, and https to loopback, private, link-local or mapped addresses, naming the url field', async () => {
    expect(await urlProblem(create({ url: local.url }))).toBe('url must use https');
    for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]/x']) {
      expect(await urlProblem(create({ url }))).toMatch(/public address/);
    }
    expect(await urlProblem(create({ url: 'https://localhost/hook' }))).toMatch(/must resolve only to public addresses/);
    expect((await kafka.rpc.request('webhooks.list', { tenant_id: 'ten_P', limit: 50, cursor: null })).data).toEqual([]);
  });

  it('refuses the same on update', async () => {
    // A public literal address passes without DNS; nothing is sent to it in this test.
    const endpoint = await create({ url: 'https://93.184.216.34/hook', events: ['lead.captured'] });
    expect(await urlProblem(kafka.rpc.request('webhooks.update', { tenant_id: 'ten_P', id: endpoint.id, body: { url: 'https://127.0.0.1/x' } }))).toMatch(
      /public address/,
    );
    await kafka.rpc.request('webhooks.delete', { tenant_id: 'ten_P', id: endpoint.id });
  });

  it('checks the address again at connect time: an endpoint now pointing at loopback gets nothing', async () => {
    // As if DNS had changed after the URL was checked: stored directly, past validation.
    const port = new URL(local.url).port;
    const endpoints = [`http://localhost:${port}/hook`, `http://127.0.0.1:${port}/hook`].map((url) => ({ id: newId('whk'), url }));
    for (const e of endpoints) {
      await sql.query(`INSERT INTO endpoints (id, tenant_id, url, events, secret) VALUES ($1, 'ten_Z', $2, '["message.status"]', $3)`, [e.id, e.url, generateSecret()]);
    }
    const data: MessageStatusData = {
      event: 'message.status',
      channel: 'whatsapp',
      tenant_id: 'ten_Z',
      message_id: newId('msg'),
      status: 'read',
      to: '+4915112345678',
      at: new Date().toISOString(),
    };
    const event = EventPublisher.envelope(Topics.MessageStatus, 'ten_Z', data);
    await kafka.publisher.publishEvent(event, conversationKey('ten_Z', data.to), undefined, { timeoutMs: 10_000 });

    const attempts = await pollUntil(
      async () => {
        const rows: { endpoint_id: string; status_code: number | null; error: string | null }[] = await sql.query(
          `SELECT d.endpoint_id, a.status_code, a.error FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1`,
          [event.id],
        );
        return rows.length === 2 && rows;
      },
      { description: 'both refused attempts', timeoutMs: 20_000 },
    );
    const byEndpoint = Object.fromEntries(attempts.map((a) => [a.endpoint_id, a]));
    expect(byEndpoint[endpoints[0].id]).toMatchObject({ status_code: null, error: expect.stringMatching(/localhost resolves to a non-public address/) });
    expect(byEndpoint[endpoints[1].id]).toMatchObject({ status_code: null, error: expect.stringMatching(/127\.0\.0\.1 is not a public address/) });
    expect(local.requests).toEqual([]);
  });
});
