import { Injectable } from '@nestjs/common';
import type { OutboundContent } from '@parley/contracts';
import { MediaObjectMissing, readAll } from '@parley/service-kit';
import type { SendingChannel } from '../channels/channels.service';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { cloudApiError, networkError } from '../providers/cloud-api.errors';
import { ProviderError } from '../providers/whatsapp-provider';
import { MediaService } from './media.service';
import { ProviderMediaStore } from './provider-media.store';

/** Cloud API media ids last 30 days; one older than this is uploaded again. */
const PROVIDER_ID_MAX_AGE_DAYS = 29;
const UPLOAD_TIMEOUT_MS = 60_000;

/**
 * Media sends (CONTRACT.md §13): the Cloud API sends a file by the id its upload route (`POST /{phone_number_id}/media`,
 * 360dialog `POST /media`) gave, so a file is uploaded once per channel and the id kept (`provider_media`).
 */
@Injectable()
export class ProviderMediaService {
  constructor(
    private readonly uploads: ProviderMediaStore,
    private readonly media: MediaService,
    private readonly config: MessagingServiceConfig,
  ) {}

  /** The content as the provider takes it: a media message gets its provider id (uploading the file if needed). */
  async prepare(tenantId: string, channel: SendingChannel, content: OutboundContent): Promise<OutboundContent> {
    if (content.type !== 'image' && content.type !== 'document' && content.type !== 'audio' && content.type !== 'video') return content;
    const mediaId = content.media.media_id;
    const cached = await this.uploads.recentUpload(tenantId, mediaId, channel.id, PROVIDER_ID_MAX_AGE_DAYS);
    if (cached) return { ...content, media: { ...content.media, provider_media_id: cached.provider_media_id, filename: cached.filename ?? undefined } };
    const stored = await this.media.get(tenantId, mediaId).catch(() => null);
    if (!stored) throw new ProviderError('media_not_found', `The media file ${mediaId} is no longer stored`, false);
    let bytes: Buffer;
    try {
      bytes = await readAll(await this.media.store.get(stored.storage_key));
    } catch (err) {
      if (err instanceof MediaObjectMissing) throw new ProviderError('media_not_found', `The media file ${mediaId} is no longer stored`, false);
      throw new ProviderError('media_store', `The media store could not be read: ${String(err)}`, true);
    }
    const providerMediaId = await this.upload(channel, bytes, stored.mime_type, stored.filename);
    await this.uploads.recordUpload(mediaId, channel.id, providerMediaId);
    return { ...content, media: { ...content.media, provider_media_id: providerMediaId, filename: stored.filename ?? undefined } };
  }

  /** One upload to the channel's provider; answers the provider's media id. */
  private async upload(channel: SendingChannel, bytes: Buffer, mimeType: string, filename: string | null): Promise<string> {
    const { sender } = channel;
    let request: { url: string; init: RequestInit };
    if (sender.provider === '360dialog') {
      request = { url: `${this.config.D360_BASE_URL}/media`, init: { headers: { 'D360-API-KEY': sender.accessToken, 'content-type': mimeType }, body: bytes } };
    } else {
      if (!sender.phoneNumberId) throw new ProviderError('no_phone_number_id', 'The channel has no phone_number_id to upload media to', false);
      const base = sender.provider === 'sandbox' ? this.config.SANDBOX_URL : this.config.GRAPH_API_BASE_URL;
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', mimeType);
      form.append('file', new Blob([bytes], { type: mimeType }), filename ?? 'file');
      request = { url: `${base}/${this.config.GRAPH_API_VERSION}/${encodeURIComponent(sender.phoneNumberId)}/media`, init: { headers: { authorization: `Bearer ${sender.accessToken}` }, body: form } };
    }
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(request.url, { method: 'POST', ...request.init, signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) });
      body = await response.json().catch(() => null);
    } catch (err) {
      // An upload repeated is harmless (a second id for the same file): never an unknown outcome.
      const error = networkError(err);
      throw new ProviderError(error.code, error.title, true, error.details);
    }
    if (!response.ok) throw cloudApiError(response.status, body);
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id) throw new ProviderError('invalid_response', 'The WhatsApp provider answered a media upload without an id', true);
    return id;
  }
}
