import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A file's id at a channel's provider, and the file's name. */
export interface ProviderUpload {
  provider_media_id: string;
  filename: string | null;
}

/** The SQL of `provider_media`: the ids a channel's provider gave the tenant's files on upload. */
@Injectable()
export class ProviderMediaStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The provider's id of the tenant's file on the channel when it was uploaded less than `maxAgeDays` ago, else null. */
  async recentUpload(tenantId: string, mediaId: string, channelId: string, maxAgeDays: number): Promise<ProviderUpload | null> {
    const [cached] = (await this.db.query(
      `SELECT p.provider_media_id, m.filename FROM provider_media p JOIN media m ON m.id = p.media_id
       WHERE p.media_id = $1 AND p.channel_id = $2 AND m.tenant_id = $3 AND p.uploaded_at > now() - ($4 || ' days')::interval`,
      [mediaId, channelId, tenantId, String(maxAgeDays)],
    )) as ProviderUpload[];
    return cached ?? null;
  }

  /**
   * Keeps the provider's id of an upload (the latest one of the file on the channel). Media and channel ids are the
   * tenant's keys here: the caller found both for the tenant.
   */
  async recordUpload(mediaId: string, channelId: string, providerMediaId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO provider_media (media_id, channel_id, provider_media_id) VALUES ($1, $2, $3)
       ON CONFLICT (media_id, channel_id) DO UPDATE SET provider_media_id = EXCLUDED.provider_media_id, uploaded_at = now()`,
      [mediaId, channelId, providerMediaId],
    );
  }
}
