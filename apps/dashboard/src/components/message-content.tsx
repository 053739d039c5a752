import { useEffect, useState } from 'react';
import { useSession } from '../session/session';

// What a message says beyond text (CONTRACT.md §13): a stored media file, a location, a tapped reply button or list row.

export interface MessageMedia {
  /** A stored file (`med_…`, `GET /api/v1/media/{id}`); absent when only the provider has it (the Playground's view). */
  id?: string;
  mime_type?: string;
  size?: number;
  caption?: string | null;
  filename?: string | null;
}

export interface MessageLocation {
  latitude: number;
  longitude: number;
  name?: string | null;
  address?: string | null;
}

/** A message as the views know it: its text (or a text stand-in) and, when the payload carries them, the richer parts. */
export interface MessageParts {
  text: string;
  type?: string;
  media?: MessageMedia | null;
  location?: MessageLocation | null;
  interactive?: { id?: string; title: string } | null;
  /** Reply buttons or list rows a business message offered (the Playground shows what the customer could tap). */
  options?: string[];
  /** A template sent to the customer (the inbox thread). */
  template?: { name: string; language?: string } | null;
}

/** Reads the optional rich fields of a message payload without trusting their shape. */
export function partsOfPayload(payload: {
  text: string;
  type?: unknown;
  media?: unknown;
  location?: unknown;
  interactive?: unknown;
  options?: unknown;
  template?: unknown;
}): MessageParts {
  const obj = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const media = obj(payload.media);
  const location = obj(payload.location);
  const interactive = obj(payload.interactive);
  const template = obj(payload.template);
  const options = Array.isArray(payload.options) ? payload.options.filter((o): o is string => typeof o === 'string') : undefined;
  return {
    text: payload.text,
    type: str(payload.type),
    media: media
      ? {
          id: str(media.id) ?? str(media.media_id),
          mime_type: str(media.mime_type),
          size: typeof media.size === 'number' ? media.size : undefined,
          caption: str(media.caption) ?? null,
          filename: str(media.filename) ?? null,
        }
      : null,
    location:
      location && typeof location.latitude === 'number' && typeof location.longitude === 'number'
        ? { latitude: location.latitude, longitude: location.longitude, name: str(location.name), address: str(location.address) }
        : null,
    interactive: interactive && str(interactive.title) ? { id: str(interactive.id), title: str(interactive.title)! } : null,
    ...(options && options.length > 0 ? { options } : {}),
    template: template && str(template.name) ? { name: str(template.name)!, language: str(template.language) } : null,
  };
}

type MediaKind = 'image' | 'video' | 'audio' | 'document';

function kindOf(media: MessageMedia, type: string | undefined): MediaKind {
  const mime = media.mime_type ?? '';
  if (mime.startsWith('image/') || type === 'image' || type === 'sticker') return 'image';
  if (mime.startsWith('video/') || type === 'video') return 'video';
  if (mime.startsWith('audio/') || type === 'audio' || type === 'voice') return 'audio';
  return 'document';
}

const KIND_LABELS: Record<MediaKind, string> = { image: 'Photo', video: 'Video', audio: 'Voice message or audio', document: 'Document' };

function sizeText(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const mediaPath = (id: string) => `/api/v1/media/${encodeURIComponent(id)}`;

/**
 * Where the browser loads a stored file from. A signed-in member's cookie goes with a plain URL; a program credential
 * (a bearer token) cannot ride on `<img src>`, so its file is fetched with the header and shown from a blob URL.
 */
function useMediaSource(id: string | undefined): { src?: string; failed: boolean } {
  const { session } = useSession();
  const token = session?.kind === 'credential' ? session.token : undefined;
  const [blob, setBlob] = useState<{ src?: string; failed: boolean }>({ failed: false });
  useEffect(() => {
    if (!id || !token) return undefined;
    let url: string | undefined;
    let cancelled = false;
    fetch(mediaPath(id), { headers: { authorization: `Bearer ${token}` } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const data = await res.blob();
        if (cancelled) return;
        url = URL.createObjectURL(data);
        setBlob({ src: url, failed: false });
      })
      .catch(() => !cancelled && setBlob({ failed: true }));
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, token]);
  if (!id) return { failed: false };
  return token ? blob : { src: mediaPath(id), failed: false };
}

/** A message's content: its media (image, video, audio player, document link), location or reply, else its text. */
export function MessageContent({ parts }: { parts: MessageParts }) {
  if (parts.media) return <MediaContent media={parts.media} type={parts.type} fallback={parts.text} />;
  if (parts.location) return <LocationContent location={parts.location} />;
  if (parts.template) {
    return (
      <p data-testid="message-template">
        <span className="message-kind block">Template</span>
        <code>{parts.template.name}</code>
        {parts.template.language && <span className="muted small"> ({parts.template.language})</span>}
      </p>
    );
  }
  if (parts.interactive) {
    return (
      <p data-testid="message-interactive">
        <span className="message-kind block">Tapped</span>
        <span className="message-reply-chip">{parts.interactive.title}</span>
      </p>
    );
  }
  return (
    <>
      <p>{parts.text}</p>
      {parts.options && parts.options.length > 0 && (
        <ul className="wa-buttons" aria-label="Choices offered">
          {parts.options.map((o, i) => (
            <li key={i}>{o}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function MediaContent({ media, type, fallback }: { media: MessageMedia; type: string | undefined; fallback: string }) {
  const kind = kindOf(media, type);
  const { src, failed } = useMediaSource(media.id);
  const caption = media.caption?.trim() || undefined;
  const label = KIND_LABELS[kind];
  let body;
  if (!src) {
    // Not stored here (the Playground's view of what the customer got), being fetched, or unreadable.
    body = <p className="message-kind">{failed ? `${label} (could not be loaded)` : label}</p>;
  } else if (kind === 'image') {
    body = <img className="message-media" src={src} alt={caption ?? `${label} from the conversation`} loading="lazy" />;
  } else if (kind === 'video') {
    body = <video className="message-media message-media-video" src={src} controls preload="metadata" aria-label={caption ?? label} />;
  } else if (kind === 'audio') {
    body = <audio className="message-audio" src={src} controls preload="metadata" aria-label={caption ?? label} />;
  } else {
    body = (
      <p>
        <a href={src} download={media.filename ?? undefined} data-testid="message-document">
          Download {media.filename ?? 'the document'}
        </a>{' '}
        <span className="muted small">
          {media.mime_type ?? ''} {sizeText(media.size)}
        </span>
      </p>
    );
  }
  return (
    <div data-testid="message-media" data-kind={kind}>
      {body}
      {caption ? <p>{caption}</p> : !src && fallback && <p>{fallback}</p>}
    </div>
  );
}

function LocationContent({ location }: { location: MessageLocation }) {
  const { latitude, longitude } = location;
  const map = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
  const place = location.name ?? location.address ?? `${latitude}, ${longitude}`;
  return (
    <div data-testid="message-location">
      <p className="message-kind">Location</p>
      {location.name && <p>{location.name}</p>}
      {location.address && <p>{location.address}</p>}
      <p>
        <a href={map} target="_blank" rel="noreferrer">
          Open {place} on the map
        </a>
      </p>
    </div>
  );
}
