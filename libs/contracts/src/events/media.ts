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
  /** @idPrefix med */
  id: string;
  mime_type: string;
  /** @apiType integer */
  size: number;
  caption: string | null;
}

/** An inbound button or list reply (CONTRACT.md §13). */
export interface InboundInteractive {
  id: string;
  title: string;
}

/** A media message to send: a stored file (`med_…`) with an optional caption (not on audio). */
export interface OutboundMedia {
  media_id: string;
  caption?: string;
  /** Set by messaging-service just before the provider call: the provider's id of the file, and its name (documents). */
  provider_media_id?: string;
  filename?: string;
}

export interface OutboundLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export interface OutboundReplyButton {
  id: string;
  title: string;
}

export interface OutboundListSection {
  title?: string;
  rows: { id: string; title: string; description?: string }[];
}

/** An interactive message (CONTRACT.md §13): up to 3 reply buttons, or a list of up to 10 rows behind a `button`. */
export type OutboundInteractive =
  | { type: 'button'; body: string; buttons: OutboundReplyButton[] }
  | { type: 'list'; body: string; button: string; sections: OutboundListSection[] };

/** The content of a media, location or interactive send, as `message.outbound` carries it. */
export type RichOutboundContent =
  | { type: MediaKind; media: OutboundMedia }
  | { type: 'location'; location: OutboundLocation }
  | { type: 'interactive'; interactive: OutboundInteractive };

export const RICH_SEND_TYPES = ['image', 'document', 'audio', 'video', 'location', 'interactive'] as const;
export type RichSendType = (typeof RICH_SEND_TYPES)[number];

/** A short text for lists and the agent's memory, e.g. "[image] Your receipt" or "[location] Office". */
export function richStandIn(content: RichOutboundContent): string {
  const detail =
    content.type === 'location'
      ? (content.location.name ?? content.location.address ?? `${content.location.latitude}, ${content.location.longitude}`)
      : content.type === 'interactive'
        ? content.interactive.body
        : content.media.caption;
  return detail ? `[${content.type}] ${detail}` : `[${content.type}]`;
}
