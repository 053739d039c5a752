import type { ServiceDatabase } from '@parley/service-kit';
import { TenantEntity } from '../accounts/tenant.entity';
import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { OAuthClientEntity } from '../oauth/oauth-client.entity';
import { CreateGateway1763856000000 } from './migrations/1763856000000-CreateGateway';

export const gatewayDatabase: ServiceDatabase = {
  schema: 'gateway',
  entities: [TenantEntity, OAuthClientEntity, ApiKeyEntity],
  migrations: [CreateGateway1763856000000],
};
