/** What a media file is sent as on WhatsApp (CONTRACT.md §13). */
export type MediaKind = 'image' | 'document' | 'audio' | 'video';

const MiB = 1024 * 1024;

/** The media types the Cloud API sends, with its own size limits (CONTRACT.md §13). */
export const MEDIA_TYPES: Readonly<Record<string, { kind: MediaKind; max_bytes: number }>> = {
  'image/jpeg': { kind: 'image', max_bytes: 5 * MiB },
  'image/png': { kind: 'image', max_bytes: 5 * MiB },
  'application/pdf': { kind: 'document', max_bytes: 100 * MiB },
  'audio/aac': { kind: 'audio', max_bytes: 16 * MiB },
  'audio/mp4': { kind: 'audio', max_bytes: 16 * MiB },
  'audio/mpeg': { kind: 'audio', max_bytes: 16 * MiB },
  'audio/ogg': { kind: 'audio', max_bytes: 16 * MiB },
  'video/mp4': { kind: 'video', max_bytes: 16 * MiB },
};

/** The largest file any media type allows: an upload is read up to this, then held to its own type's limit. */
export const MEDIA_MAX_BYTES = Math.max(...Object.values(MEDIA_TYPES).map((t) => t.max_bytes));

/** A stored media file as `POST /api/v1/media` answers it. */
export interface MediaRecord {
  id: string;
  mime_type: string;
  size: number;
  /** Hex SHA-256 of the bytes: the same bytes uploaded again by the same tenant answer the same record. */
  sha256: string;
  filename: string | null;
}

/** Inbound media as `message.inbound` / `message.received` carry it (CONTRACT.md §13). */
export interface InboundMedia {
  id: string;
  mime_type: string;
  size: number;
  caption: string | null;
}

/** An inbound button or list reply (CONTRACT.md §13). */
export interface InboundInteractive {
  id: string;
  title: string;
}
