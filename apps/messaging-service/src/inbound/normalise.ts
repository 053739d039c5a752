import type { InboundMessageType } from '@parley/contracts';
import { normalisePhone } from '../common/phone';
import type { CloudApiContact, CloudApiInboundMessage } from '../providers/cloud-api.types';

/** A customer's message in our terms, before it is attributed to a tenant's channel. */
export interface NormalisedInbound {
  providerMessageId: string;
  /** E.164 number, or the business-scoped user id when the provider sent no number. */
  from: string;
  fromUserId: string | null;
  type: InboundMessageType;
  /** The text, or a readable stand-in for other types. */
  text: string;
  /** When the customer wrote it (RFC 3339); null when the provider's timestamp is missing or unreadable. */
  sentAt: string | null;
  contactName: string | null;
  /** Email: the subject line. */
  subject?: string | null;
  /** A media message's file at the provider (downloaded before the message is announced). */
  media?: { providerMediaId: string; mimeType: string; caption: string | null; filename: string | null } | null;
  /** A tapped reply button or list row. */
  interactive?: { id: string; title: string } | null;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<InboundMessageType>([
  'text',
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
]);

/**
 * Normalises one Cloud API `messages[]` item (with the change's `contacts[]`). Null when it cannot be a message:
 * not an object, no id, or no sender at all. Unknown types become `unsupported`; they still reach the agent and the
 * webhook. The payload is untrusted JSON, so every field is type-checked rather than assumed.
 */
export function normaliseInbound(item: unknown, contacts: unknown = []): NormalisedInbound | null {
  if (!isRecord(item)) return null;
  const message = item as CloudApiInboundMessage;
  if (typeof message.id !== 'string' || !message.id) return null;
  const known = (Array.isArray(contacts) ? contacts : []).filter(isRecord) as CloudApiContact[];
  const contact =
    known.find((c) => (nonEmpty(message.from) && c.wa_id === message.from) || (nonEmpty(message.from_user_id) && c.user_id === message.from_user_id)) ??
    (known.length === 1 ? known[0] : undefined);
  const fromUserId = nonEmpty(message.from_user_id) ?? nonEmpty(contact?.user_id);
  const phone = nonEmpty(message.from) ?? nonEmpty(contact?.wa_id);
  const from = phone ? normalisePhone(phone) : fromUserId;
  if (!from) return null;
  const type: InboundMessageType = typeof message.type === 'string' && KNOWN_TYPES.has(message.type) ? (message.type as InboundMessageType) : 'unsupported';
  const profile: unknown = contact?.profile;
  // PostgreSQL text cannot hold U+0000: a customer's message with one must still be stored, so it is dropped.
  return {
    providerMessageId: withoutNul(message.id),
    from: withoutNul(from),
    fromUserId: fromUserId === null ? null : withoutNul(fromUserId),
    type,
    text: withoutNul(inboundText(type, message)),
    sentAt: unixToIso(message.timestamp),
    contactName: optionalWithoutNul(nonEmpty(isRecord(profile) ? profile.name : undefined)),
    ...optional('media', inboundMedia(type, message)),
    ...optional('interactive', inboundInteractive(type, message)),
  };
}

/** The text of a message, or a stand-in such as "[image] caption" or "[location] Office (52.1, 4.3)". */
export function inboundText(type: InboundMessageType, item: CloudApiInboundMessage): string {
  switch (type) {
    case 'text':
      return text(field(item.text, 'body')) ?? '';
    case 'image':
    case 'video':
    case 'sticker':
    case 'audio':
      return standIn(type, field(item[type], 'caption'));
    case 'document':
      return standIn('document', firstText(field(item.document, 'caption'), field(item.document, 'filename')));
    case 'location': {
      const l = isRecord(item.location) ? item.location : {};
      const where = nonEmpty(l.name) ?? nonEmpty(l.address);
      const coordinates = typeof l.latitude === 'number' && typeof l.longitude === 'number' ? `(${l.latitude}, ${l.longitude})` : undefined;
      return standIn('location', [where, coordinates].filter(Boolean).join(' '));
    }
    case 'contacts': {
      const cards = (Array.isArray(item.contacts) ? item.contacts : []).filter(isRecord);
      const names = cards.map((c) => firstText(field(c.name, 'formatted_name'), field(c.name, 'first_name'), Array.isArray(c.phones) ? field(c.phones[0], 'phone') : undefined));
      return standIn('contacts', names.filter(Boolean).join(', '));
    }
    case 'interactive': {
      const i = item.interactive as Record<string, unknown> | undefined;
      // A tapped button or row reads as what it says (CONTRACT.md §13); a flow reply keeps its stand-in.
      return firstText(field(i?.button_reply, 'title'), field(i?.list_reply, 'title')) ?? standIn('interactive', firstText(field(i?.nfm_reply, 'body'), field(i?.nfm_reply, 'name')));
    }
    case 'button':
      return standIn('button', firstText(field(item.button, 'text'), field(item.button, 'payload')));
    case 'reaction':
      return standIn('reaction', field(item.reaction, 'emoji'));
    case 'unsupported':
      return standIn('unsupported', typeof item.type === 'string' && item.type !== 'unsupported' && item.type !== 'unknown' ? item.type : undefined);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `parent[key]` when `parent` is an object, whatever shape the provider sent. */
function field(parent: unknown, key: string): unknown {
  return isRecord(parent) ? parent[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function firstText(...values: unknown[]): string | undefined {
  return values.map((v) => nonEmpty(v)).find((v) => v !== null) ?? undefined;
}

function standIn(kind: string, detail: unknown): string {
  const d = typeof detail === 'string' ? detail.trim() : '';
  return d ? `[${kind}] ${d}` : `[${kind}]`;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function withoutNul(value: string): string {
  return value.replaceAll('\u0000', '');
}

function optionalWithoutNul(value: string | null): string | null {
  return value === null ? null : withoutNul(value);
}

/** Cloud API timestamps are Unix seconds as strings. */
export function unixToIso(timestamp: string | number | undefined): string | null {
  const seconds = Number(timestamp);
  if (timestamp === undefined || timestamp === '' || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toISOString();
}

const MEDIA_TYPES: ReadonlySet<InboundMessageType> = new Set(['image', 'audio', 'video', 'document', 'sticker']);

/** The provider's file of a media message (`image: {id, mime_type, caption}` …); null without a usable id. */
function inboundMedia(type: InboundMessageType, item: CloudApiInboundMessage): NormalisedInbound['media'] {
  if (!MEDIA_TYPES.has(type)) return null;
  const media = (item as Record<string, unknown>)[type];
  const id = nonEmpty(field(media, 'id'));
  if (!id) return null;
  return {
    providerMediaId: withoutNul(id),
    mimeType: (nonEmpty(field(media, 'mime_type')) ?? 'application/octet-stream').split(';')[0].trim().toLowerCase(),
    caption: optionalWithoutNul(nonEmpty(field(media, 'caption'))),
    filename: optionalWithoutNul(nonEmpty(field(media, 'filename'))),
  };
}

/** A tapped reply button or list row: `{id, title}`; null for anything else. */
function inboundInteractive(type: InboundMessageType, item: CloudApiInboundMessage): NormalisedInbound['interactive'] {
  if (type !== 'interactive') return null;
  const i = item.interactive as Record<string, unknown> | undefined;
  const reply = isRecord(i?.button_reply) ? i.button_reply : isRecord(i?.list_reply) ? i.list_reply : null;
  const id = nonEmpty(field(reply, 'id'));
  const title = nonEmpty(field(reply, 'title'));
  return id && title ? { id: withoutNul(id), title: withoutNul(title) } : null;
}

/** `{[key]: value}` when there is a value, else nothing (text messages carry neither media nor interactive). */
function optional<K extends string, V>(key: K, value: V | null): Partial<Record<K, V>> {
  return value === null ? {} : ({ [key]: value } as Record<K, V>);
}
