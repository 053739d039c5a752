import type { WebhookEndpointRecord } from '@parley/contracts';
import type { EndpointEntity } from './endpoint.entity';

/** The public endpoint record (CONTRACT.md §5), without the secret. */
export function toEndpointRecord(entity: EndpointEntity): WebhookEndpointRecord {
  return {
    id: entity.id,
    url: entity.url,
    events: entity.events,
    description: entity.description,
    enabled: entity.enabled,
    ordered: entity.ordered,
    created_at: entity.createdAt.toISOString(),
  };
}
