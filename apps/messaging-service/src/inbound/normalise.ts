import type { InboundMessageType } from '@parley/contracts';
import { normalisePhone } from '../common/phone';
import type { CloudApiContact, CloudApiInboundMessage, CloudApiMedia } from '../providers/cloud-api.types';

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
 * no id, or no sender at all. Unknown types become `unsupported`; they still reach the agent and the webhook.
 */
export function normaliseInbound(item: CloudApiInboundMessage, contacts: CloudApiContact[] = []): NormalisedInbound | null {
  if (typeof item.id !== 'string' || !item.id) return null;
  const contact = contacts.find((c) => (item.from && c.wa_id === item.from) || (item.from_user_id && c.user_id === item.from_user_id)) ?? (contacts.length === 1 ? contacts[0] : undefined);
  const fromUserId = nonEmpty(item.from_user_id) ?? nonEmpty(contact?.user_id);
  const phone = nonEmpty(item.from) ?? nonEmpty(contact?.wa_id);
  const from = phone ? normalisePhone(phone) : fromUserId;
  if (!from) return null;
  const type: InboundMessageType = typeof item.type === 'string' && KNOWN_TYPES.has(item.type) ? (item.type as InboundMessageType) : 'unsupported';
  return {
    providerMessageId: item.id,
    from,
    fromUserId,
    type,
    text: inboundText(type, item),
    sentAt: unixToIso(item.timestamp),
    contactName: nonEmpty(contact?.profile?.name),
  };
}

/** The text of a message, or a stand-in such as "[image] caption" or "[location] Office (52.1, 4.3)". */
export function inboundText(type: InboundMessageType, item: CloudApiInboundMessage): string {
  switch (type) {
    case 'text':
      return item.text?.body ?? '';
    case 'image':
    case 'video':
    case 'sticker':
    case 'audio':
      return standIn(type, media(item, type)?.caption);
    case 'document':
      return standIn('document', item.document?.caption ?? item.document?.filename);
    case 'location': {
      const l = item.location;
      const where = nonEmpty(l?.name) ?? nonEmpty(l?.address);
      const coordinates = typeof l?.latitude === 'number' && typeof l.longitude === 'number' ? `(${l.latitude}, ${l.longitude})` : undefined;
      return standIn('location', [where, coordinates].filter(Boolean).join(' '));
    }
    case 'contacts':
      return standIn('contacts', (item.contacts ?? []).map((c) => c.name?.formatted_name ?? c.name?.first_name ?? c.phones?.[0]?.phone).filter(Boolean).join(', '));
    case 'interactive': {
      const i = item.interactive;
      return standIn('interactive', i?.button_reply?.title ?? i?.list_reply?.title ?? i?.nfm_reply?.body ?? i?.nfm_reply?.name);
    }
    case 'button':
      return standIn('button', item.button?.text ?? item.button?.payload);
    case 'reaction':
      return standIn('reaction', item.reaction?.emoji);
    case 'unsupported':
      return standIn('unsupported', typeof item.type === 'string' && item.type !== 'unsupported' && item.type !== 'unknown' ? item.type : undefined);
  }
}

function media(item: CloudApiInboundMessage, type: 'image' | 'video' | 'sticker' | 'audio'): CloudApiMedia | undefined {
  return item[type];
}

function standIn(kind: string, detail: string | undefined): string {
  const d = detail?.trim();
  return d ? `[${kind}] ${d}` : `[${kind}]`;
}

function nonEmpty(value: string | undefined | null): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** Cloud API timestamps are Unix seconds as strings. */
export function unixToIso(timestamp: string | number | undefined): string | null {
  const seconds = Number(timestamp);
  if (timestamp === undefined || timestamp === '' || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toISOString();
}
