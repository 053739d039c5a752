import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { GraphErrors } from '../cloud-api/graph-error';
import { newGraphId } from '../cloud-api/ids';
import { MediaEntity } from './media.entity';
import { MediaStore } from './media.store';

/** The Cloud API's media limits (a business upload over its type's limit is refused as Meta does). */
const MiB = 1024 * 1024;
const UPLOAD_LIMITS: Record<string, number> = {
  'image/jpeg': 5 * MiB,
  'image/png': 5 * MiB,
  'image/webp': 500 * 1024,
  'application/pdf': 100 * MiB,
  'audio/aac': 16 * MiB,
  'audio/mp4': 16 * MiB,
  'audio/mpeg': 16 * MiB,
  'audio/ogg': 16 * MiB,
  'audio/amr': 16 * MiB,
  'video/mp4': 16 * MiB,
  'video/3gpp': 16 * MiB,
};

/** `GET /{version}/{media_id}`: where and what a media file is (Meta's shape). */
export interface GraphMediaInfo {
  messaging_product: 'whatsapp';
  url: string;
  mime_type: string;
  sha256: string;
  file_size: number;
  id: string;
}

export interface NewMedia {
  phoneNumberId: string;
  direction: 'outbound' | 'inbound';
  mimeType: string;
  data: Buffer;
  filename: string | null;
  failuresLeft?: number;
}

/** The route of media downloads (Meta serves them from lookaside.fbsbx.com with the same token). */
export const DOWNLOAD_PATH = '/whatsapp_business/attachments/';

/** Media files at the sandbox: the Cloud API upload, info and download routes, and the test hooks' reads. */
@Injectable()
export class SandboxMediaService {
  constructor(private readonly media: MediaStore) {}

  /** `POST /{version}/{phone_number_id}/media`: a business uploads a file to send; answers its media id. */
  async upload(phoneNumberId: string, form: { messagingProduct: string | null; type: string | null; file: { data: Buffer; mimeType: string; filename: string | null } | null }): Promise<{ id: string }> {
    if (form.messagingProduct !== 'whatsapp') throw GraphErrors.invalidParameter('The parameter messaging_product is required.');
    if (!form.file) throw GraphErrors.invalidParameter('The parameter file is required.');
    const mimeType = (form.type ?? form.file.mimeType).toLowerCase();
    const limit = UPLOAD_LIMITS[mimeType];
    if (limit === undefined) throw GraphErrors.invalidParameter(`Param file must be a file with one of the following types: ${Object.keys(UPLOAD_LIMITS).join(', ')}. Received file of type '${mimeType}'.`);
    if (form.file.data.length > limit) throw GraphErrors.invalidParameter(`Param file must be at most ${limit} bytes for ${mimeType}.`);
    const media = await this.store({ phoneNumberId, direction: 'outbound', mimeType, data: form.file.data, filename: form.file.filename });
    return { id: media.id };
  }

  async store(media: NewMedia): Promise<MediaEntity> {
    const entity = Object.assign(new MediaEntity(), {
      id: newGraphId(),
      phoneNumberId: media.phoneNumberId,
      direction: media.direction,
      mimeType: media.mimeType,
      sha256: createHash('sha256').update(media.data).digest('base64'),
      size: media.data.length,
      filename: media.filename,
      data: media.data,
      failuresLeft: media.failuresLeft ?? 0,
    });
    await this.media.insert(entity);
    return entity;
  }

  /** A media file by id, or null (the Graph routes answer for phone numbers too). */
  find(id: string): Promise<MediaEntity | null> {
    return this.media.find(id);
  }

  info(media: MediaEntity, baseUrl: string): GraphMediaInfo {
    return {
      messaging_product: 'whatsapp',
      url: `${baseUrl}${DOWNLOAD_PATH}?mid=${media.id}&ext=${Date.now()}`,
      mime_type: media.mimeType,
      sha256: media.sha256,
      file_size: media.size,
      id: media.id,
    };
  }

  /** The download URL's bytes; while the file's injected failures last, each download fails with a 500 instead. */
  async download(id: string): Promise<MediaEntity> {
    if (await this.media.takeInjectedFailure(id)) throw GraphErrors.unexpected();
    const media = await this.find(id);
    if (!media) throw GraphErrors.unknownObject('get', id);
    return media;
  }

  /** Whether a media id the business sends with exists on that number. */
  async exists(phoneNumberId: string, id: string): Promise<boolean> {
    return this.media.exists(phoneNumberId, id);
  }
}
