import { Inject, Injectable } from '@nestjs/common';
import { newId, notFoundProblem, type MediaRecord, type StoredMedia } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { MediaObjectMissing, ProblemException, type MediaStore } from '@parley/service-kit';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { checkMediaSize, mediaTypeOf } from './media-type';
import type { MediaUpload } from './media-uploads';

export const MEDIA_STORE = Symbol('MediaStore');

/** A media id that cannot exist is not found without a call. */
const MEDIA_ID = /^med_[0-9A-HJKMNP-TV-Z]{26}$/;

/** A stored file ready to stream. */
export interface MediaDownload {
  media: MediaRecord;
  body: Readable;
}

/**
 * The gateway's half of media (CONTRACT.md §13): it checks an upload (type by content, the Cloud API size limits),
 * puts the bytes in the shared store and has messaging-service, which owns media records, record them.
 */
@Injectable()
export class MediaService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(MEDIA_STORE) private readonly store: MediaStore,
  ) {}

  async upload(tenantId: string, upload: MediaUpload, requestId: string): Promise<MediaRecord> {
    const mimeType = mediaTypeOf(upload.data, upload.declaredType);
    checkMediaSize(upload.data.length, mimeType);
    const id = newId('med');
    const storageKey = `${tenantId}/${id}`;
    await this.store.put(storageKey, upload.data, mimeType);
    const sha256 = createHash('sha256').update(upload.data).digest('hex');
    let stored: StoredMedia;
    try {
      stored = await this.rpc.request(
        'media.register',
        { tenant_id: tenantId, media: { id, mime_type: mimeType, size: upload.data.length, sha256, filename: upload.filename, storage_key: storageKey } },
        { requestId },
      );
    } catch (err) {
      await this.store.delete(storageKey).catch(() => undefined);
      throw err;
    }
    // The tenant had these bytes already: that record stands, and this copy is not needed.
    if (stored.storage_key !== storageKey) await this.store.delete(storageKey);
    return publicRecord(stored);
  }

  async download(tenantId: string, mediaId: string, requestId: string): Promise<MediaDownload> {
    if (!MEDIA_ID.test(mediaId)) throw notFound(mediaId);
    const stored = await this.rpc.request('media.get', { tenant_id: tenantId, media_id: mediaId }, { requestId });
    try {
      return { media: publicRecord(stored), body: await this.store.get(stored.storage_key) };
    } catch (err) {
      if (err instanceof MediaObjectMissing) throw notFound(mediaId); // swept between the two reads
      throw err;
    }
  }
}

function publicRecord({ id, mime_type, size, sha256, filename }: StoredMedia): MediaRecord {
  return { id, mime_type, size, sha256, filename };
}

function notFound(mediaId: string): ProblemException {
  return new ProblemException(notFoundProblem(`Media "${mediaId.slice(0, 40)}"`));
}
