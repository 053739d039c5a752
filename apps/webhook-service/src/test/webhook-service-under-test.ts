import type { CreateWebhookBody, WebhookEndpointRecord } from '@parley/contracts';
import { pollUntil, startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
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

/** webhook-service under test (libs/testing's harness), with helpers the specs share. */
export interface WebhookServiceUnderTest extends ServiceUnderTest<WebhookServiceConfig> {
  /** Creates an endpoint over request-reply, as the gateway would. */
  createEndpoint(tenantId: string, body: CreateWebhookBody): Promise<WebhookEndpointRecord & { secret: string }>;
  /** Starts a receiver that `close()` stops. */
  receiver(...args: Parameters<typeof Receiver.start>): Promise<Receiver>;
  /** The deliveries of an event, one per endpoint it went to. */
  deliveriesOf(eventId: string): Promise<DeliveryRow[]>;
  /** Waits until the delivery of an event to an endpoint has the wanted status, and returns it. */
  deliveryReaching(eventId: string, endpointId: string, wanted: string): Promise<DeliveryRow>;
}

/** Boots the service the way integration specs need it: fast retries, quiet logs; `env` overrides any setting. */
export async function startWebhookService(label: string, env: Record<string, string> = {}): Promise<WebhookServiceUnderTest> {
  const service = await startServiceUnderTest(
    label,
    { database: webhookServiceDatabase, Config: WebhookServiceConfig, module: webhookServiceModule },
    { NODE_ENV: 'development', LOG_LEVEL: 'error', WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_TIMEOUT_MS: '5000', ...env },
  );
  const deliveriesOf = (eventId: string): Promise<DeliveryRow[]> =>
    service.sql.query(`SELECT id, endpoint_id, status, attempt_count FROM deliveries WHERE event_id = $1 ORDER BY id`, [eventId]);
  return {
    ...service,
    createEndpoint: (tenantId, body) => service.kafka.rpc.request('webhooks.create', { tenant_id: tenantId, body }),
    async receiver(...args) {
      const receiver = await Receiver.start(...args);
      service.onClose(() => receiver.close());
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
  };
}
