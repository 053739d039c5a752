import type { MediaRecord } from '../events/media';
import type { TenantScoped } from './rpc-shapes';

/** A stored file's record with where its bytes are (internal: the store key is never shown to tenants). */
export interface StoredMedia extends MediaRecord {
  storage_key: string;
}

/** messaging-service's media patterns (CONTRACT.md §13): it owns media records; the bytes are in the shared store. */
export interface MediaRpc {
  /**
   * Records bytes the gateway stored under `storage_key` as media `id`. When the tenant has the same bytes already
   * (same sha256), that record answers instead (and its retention starts again); the caller then removes its copy.
   */
  'media.register': { service: 'messaging'; request: TenantScoped & { media: StoredMedia }; response: StoredMedia };
  /** The tenant's media record; 404 for another tenant's or an expired one. */
  'media.get': { service: 'messaging'; request: TenantScoped & { media_id: string }; response: StoredMedia };
}
