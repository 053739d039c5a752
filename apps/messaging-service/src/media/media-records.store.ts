import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StoredMedia } from '@parley/contracts';
import { DataSource } from 'typeorm';
import { MediaEntity } from './media.entity';

/** A `media` row as raw SQL answers it. */
export interface MediaRow {
  id: string;
  sha256: string;
  mime_type: string;
  size: string | number;
  filename: string | null;
  storage_key: string;
}

/** A record past its retention, with where its bytes are. */
export interface ExpiredMedia {
  id: string;
  storage_key: string;
}

/**
 * The SQL of media records (`media`: one per tenant and content); the tenant id first. The bytes are in the media
 * store (MediaService puts and removes them).
 */
@Injectable()
export class MediaRecordsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records the media until `expiresAt`; when the tenant holds the same bytes, answers that record, kept at least as long. */
  async register(tenantId: string, media: StoredMedia, expiresAt: Date): Promise<MediaRow> {
    const [row] = (await this.db.query(
      `INSERT INTO media (id, tenant_id, sha256, mime_type, size, filename, storage_key, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, sha256) DO UPDATE SET expires_at = GREATEST(media.expires_at, EXCLUDED.expires_at)
       RETURNING id, sha256, mime_type, size, filename, storage_key`,
      [media.id, tenantId, media.sha256, media.mime_type, media.size, media.filename, media.storage_key, expiresAt],
    )) as MediaRow[];
    return row;
  }

  /** The tenant's record (expired or not), or null. */
  find(tenantId: string, id: string): Promise<MediaEntity | null> {
    return this.db.getRepository(MediaEntity).findOne({ where: { tenantId, id } });
  }

  /** Up to `limit` records past their expiry (any tenant's), the longest expired first. */
  async expired(limit: number): Promise<ExpiredMedia[]> {
    return (await this.db.query(`SELECT id, storage_key FROM media WHERE expires_at <= now() ORDER BY expires_at LIMIT $1`, [limit])) as ExpiredMedia[];
  }

  /** Deletes those of the records that are still expired (one uploaded again meanwhile stays); answers how many went. */
  async deleteExpired(ids: readonly string[]): Promise<number> {
    const deleted = (await this.db.query(`DELETE FROM media WHERE id = ANY($1::text[]) AND expires_at <= now() RETURNING id`, [ids])) as unknown[];
    return Array.isArray(deleted[0]) ? (deleted[0] as unknown[]).length : deleted.length;
  }
}
