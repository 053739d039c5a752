import type { ServiceDatabase } from '@parley/service-kit';
import { DeliveryAttemptEntity, DeliveryEntity, WebhookEventEntity } from '../deliveries/delivery.entity';
import { EndpointEntity } from '../endpoints/endpoint.entity';
import { CreateWebhooks1763856000000 } from './migrations/1763856000000-CreateWebhooks';
import { OrderedAndResentDeliveries1763942400000 } from './migrations/1763942400000-OrderedAndResentDeliveries';
import { PerEndpointQueue1764028800000 } from './migrations/1764028800000-PerEndpointQueue';
import { DeliveriesNotify1764460800000 } from './migrations/1764460800000-DeliveriesNotify';
import { NotifyOnlyCreatedDeliveries1765929600000 } from './migrations/1765929600000-NotifyOnlyCreatedDeliveries';

export const webhookServiceDatabase: ServiceDatabase = {
  schema: 'webhooks',
  entities: [EndpointEntity, WebhookEventEntity, DeliveryEntity, DeliveryAttemptEntity],
  migrations: [CreateWebhooks1763856000000, OrderedAndResentDeliveries1763942400000, PerEndpointQueue1764028800000, DeliveriesNotify1764460800000, NotifyOnlyCreatedDeliveries1765929600000],
};
