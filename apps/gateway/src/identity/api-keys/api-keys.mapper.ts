import type { ApiKeyEntity } from './api-key.entity';

/** An API key as listed: never the secret, only the prefix that tells keys apart. */
export interface ApiKeyRecord {
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
}

/** A key as created: the only time its secret is shown. */
export interface CreatedApiKey {
  id: string;
  name: string | null;
  api_key: string;
  created_at: string;
}

export function toApiKeyRecord(entity: ApiKeyEntity): ApiKeyRecord {
  return { id: entity.id, name: entity.name, prefix: entity.keyPrefix, created_at: entity.createdAt.toISOString() };
}

export function toCreatedApiKey(entity: ApiKeyEntity, apiKey: string): CreatedApiKey {
  return { id: entity.id, name: entity.name, api_key: apiKey, created_at: entity.createdAt.toISOString() };
}
