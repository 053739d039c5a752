import type { ApiKeyRecord, CreatedApiKey } from '@parley/contracts';
import type { ApiKeyEntity } from './api-key.entity';

/** An API key as listed: never the secret, only the prefix that tells keys apart. */
export function toApiKeyRecord(entity: ApiKeyEntity): ApiKeyRecord {
  return { id: entity.id, name: entity.name, prefix: entity.keyPrefix, created_at: entity.createdAt.toISOString() };
}

/** A key as created: the only time its secret is shown. */
export function toCreatedApiKey(entity: ApiKeyEntity, apiKey: string): CreatedApiKey {
  return { id: entity.id, name: entity.name, api_key: apiKey, created_at: entity.createdAt.toISOString() };
}
