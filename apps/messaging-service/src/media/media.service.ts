import { Inject, Injectable } from '@nestjs/common';
import { newId, notFoundProblem, type StoredMedia } from '@parley/contracts';
import { ProblemException, type MediaStore } from '@parley/service-kit';
import { createHash } from 'node:crypto';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { MediaRecordsStore, type MediaRow } from './media-records.store';

export const MEDIA_STORE = Symbol('MediaStore');

const DAY_MS = 24 * 60 * 60 * 1000;

/** Media records, one per tenant and content; every read is scoped by tenant (another tenant's media is not found). */
@Injectable()
export class MediaService {
  constructor(
    private readonly records: MediaRecordsStore,
    @Inject(MEDIA_STORE) readonly store: MediaStore,
    private readonly config: MessagingServiceConfig,
  ) {}

  /**
   * Records `media` (its bytes already stored under its key). When the tenant holds the same bytes, that record is
   * answered instead and its retention starts again (the caller then removes its own copy of the bytes).
   */
  async register(tenantId: string, media: StoredMedia): Promise<StoredMedia> {
    const expiresAt = new Date(Date.now() + this.config.MEDIA_RETENTION_DAYS * DAY_MS);
    return toStoredMedia(await this.records.register(tenantId, media, expiresAt));
  }

  /** Stores bytes that arrived here (a customer's file): into the store, then recorded (deduplicated per tenant). */
  async storeBytes(tenantId: string, data: Buffer, mimeType: string, filename: string | null): Promise<StoredMedia> {
    const id = newId('med');
    const storageKey = `${tenantId}/${id}`;
    await this.store.put(storageKey, data, mimeType);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const stored = await this.register(tenantId, { id, mime_type: mimeType, size: data.length, sha256, filename, storage_key: storageKey });
    if (stored.storage_key !== storageKey) await this.store.delete(storageKey); // the tenant had these bytes already
    return stored;
  }

  async get(tenantId: string, mediaId: string): Promise<StoredMedia> {
    const row = await this.records.find(tenantId, mediaId);
    if (!row || row.expiresAt.getTime() <= Date.now()) throw new ProblemException(notFoundProblem(`Media "${mediaId.slice(0, 40)}"`));
    return toStoredMedia({ id: row.id, sha256: row.sha256, mime_type: row.mimeType, size: row.size, filename: row.filename, storage_key: row.storageKey });
  }

  /**
   * Removes up to `limit` expired files: their bytes first, then their records, so a sweep cut short leaves records
   * that the next one finds again (never bytes that nothing names). Answers how many went.
   */
  async sweepExpired(limit = 500): Promise<number> {
    const expired = await this.records.expired(limit);
    for (const { storage_key } of expired) await this.store.delete(storage_key);
    if (expired.length === 0) return 0;
    // A record uploaded again meanwhile got a later expiry and stays (its bytes are under its own, unchanged key).
    return this.records.deleteExpired(expired.map((m) => m.id));
  }
}

function toStoredMedia(row: MediaRow): StoredMedia {
  return { id: row.id, mime_type: row.mime_type, size: Number(row.size), sha256: row.sha256, filename: row.filename, storage_key: row.storage_key };
}
