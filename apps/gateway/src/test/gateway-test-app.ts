import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CreatedAccount } from '@parley/contracts';
import { loadConfig, runMigrations, startServiceApp } from '@parley/service-kit';
import { KafkaHarness, TEST_FETCH_MAX_WAIT_MS, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace, type TestDatabase } from '@parley/testing';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabase } from '../database/gateway.database';
import { createGatewayApp } from '../gateway-app';

// The answer of `signUp()`, and the signature of a Meta notification: specs take them from here rather than from the
// features that own them (a spec of http/ names no feature).
export type { CreatedAccount };
export { metaSignature } from '../provider-intake/meta-signature';

export const TEST_META_APP_SECRET = 'test-meta-app-secret';
export const TEST_META_VERIFY_TOKEN = 'test-verify-token';
export const TEST_JWT_SECRET = 'test-jwt-secret-at-least-16-chars';
export const TEST_ENCRYPTION_KEY = Buffer.from('test-encryption-key-of-32-bytes!').toString('base64');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are checked by each test
export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (no JSON encoding); pair with a content type. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  token?: string;
}

/** A gateway running in-process on a fresh database and Kafka namespace, with a harness in that namespace. */
export class GatewayTestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly baseUrl: string,
    readonly config: GatewayConfig,
    readonly db: TestDatabase,
    readonly kafka: KafkaHarness,
    private readonly ownsInfra: boolean,
    /** The internal port of `GET /metrics` (production); null when the public port serves it. */
    readonly metricsPort: number | null,
  ) {}

  static async start(label: string, env: Record<string, string> = {}): Promise<GatewayTestApp> {
    const db = await createTestDatabase(label);
    await runMigrations(db.url, gatewayDatabase);
    const namespace = uniqueKafkaNamespace(label);
    const kafka = await KafkaHarness.start(namespace);
    return GatewayTestApp.boot(db, kafka, namespace, env, true);
  }

  /** A second gateway on the same database and namespace, with other settings. */
  async sibling(env: Record<string, string>): Promise<GatewayTestApp> {
    return GatewayTestApp.boot(this.db, this.kafka, this.config.KAFKA_TOPIC_PREFIX, env, false);
  }

  private static async boot(db: TestDatabase, kafka: KafkaHarness, namespace: string, env: Record<string, string>, ownsInfra: boolean): Promise<GatewayTestApp> {
    const config = loadConfig(GatewayConfig, {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      KAFKA_TOPIC_PREFIX: namespace,
      KAFKA_FETCH_MAX_WAIT_MS: TEST_FETCH_MAX_WAIT_MS,
      REDIS_URL: testInfra().redisUrl,
      REDIS_KEY_PREFIX: namespace,
      // The balance view of this run alone: no billing-service writes a price book under it, so no send is refused for
      // money unless a test brings one (insufficient-funds.integration-spec.ts passes its own prefix).
      BILLING_VIEW_PREFIX: `${namespace}billing:`,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SANDBOX_ENABLED: 'false',
      JWT_SECRET: TEST_JWT_SECRET,
      META_APP_SECRET: TEST_META_APP_SECRET,
      META_VERIFY_TOKEN: TEST_META_VERIFY_TOKEN,
      // The platform's mail is off unless a test points it at an SMTP server of its own (mail/platform-mail.integration-spec.ts).
      MAIL_SMTP_URL: '',
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ...env,
    });
    const app = await createGatewayApp(config);
    // Started as main.ts starts it (PORT 0: a free port).
    const { port, metricsPort } = await startServiceApp(app, config, 'gateway');
    const gateway = new GatewayTestApp(app, `http://127.0.0.1:${port}`, config, db, kafka, ownsInfra, metricsPort);
    // Ready = database reachable, producer connected and the reply consumer running.
    await pollUntil(async () => (await gateway.request('GET', '/health/ready')).status === 200, { description: 'gateway readiness', timeoutMs: 30_000 });
    return gateway;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, headers: response.headers, body: (type.includes('json') && text ? JSON.parse(text) : text) as T };
  }

  async signUp(name = 'Acme Bakery'): Promise<CreatedAccount> {
    const answer = await this.request<CreatedAccount>('POST', '/api/v1/accounts', { body: { name, email: 'owner@example.com' } });
    if (answer.status !== 201) throw new Error(`sign-up answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async close(): Promise<void> {
    await this.app.close();
    if (this.ownsInfra) {
      await this.kafka.close();
      await this.db.drop();
    }
  }
}
