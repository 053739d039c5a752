import type { EventEnvelope } from './envelope';
import type { InboundInteractive, InboundMedia, RichOutboundContent } from './media';

export type ChannelKind = 'whatsapp' | 'sms' | 'email' | 'voice';
/** The channels `/v1/send` sends on: a voice reply is only ever spoken on the call it answers (CONTRACT.md §17). */
export const SUPPORTED_CHANNELS: readonly ChannelKind[] = ['whatsapp', 'sms', 'email'];
/** Every kind of channel a message or conversation can be on. */
export const CHANNEL_KINDS: readonly ChannelKind[] = ['whatsapp', 'sms', 'email', 'voice'];

export type WhatsappProvider = 'meta' | '360dialog' | 'sandbox';
/** SMS providers (CONTRACT.md §17): Twilio's Messages API, or the sandbox speaking it. */
export type SmsProvider = 'twilio' | 'sandbox';
/** Voice providers (CONTRACT.md §17): Twilio Voice (TwiML webhooks), or the sandbox playing the caller on its wire. */
export type VoiceProvider = 'twilio' | 'sandbox';
/** Email providers (CONTRACT.md §17): an SMTP relay, or the sandbox's SMTP sink. */
export type EmailProvider = 'smtp' | 'sandbox';
/** Any channel's provider; `sandbox` is one per channel kind. */
export type ChannelProvider = WhatsappProvider | SmsProvider | EmailProvider;

/** Cloud API template shape (`template` of a send). */
export interface TemplateContent {
  name: string;
  language: { code: string; policy?: string };
  components?: unknown[];
}

/** A message's content; `subject` and `html` are set for email only. */
export type OutboundContent = { type: 'text'; text: string; subject?: string; html?: string | null } | { type: 'template'; template: TemplateContent } | RichOutboundContent;

/** `message.outbound`: a message to send. `message_id` is the idempotency key of the send. */
export interface MessageOutboundData {
  message_id: string;
  channel: ChannelKind;
  /** A business number of the tenant (E.164); null: the tenant's default channel, or the channel of `channel_id`. */
  from: string | null;
  /** Set for agent replies: the channel the conversation is on. */
  channel_id?: string | null;
  /** Customer: E.164 number or a business-scoped user id. */
  to: string;
  content: OutboundContent;
  /** Email only: the subject line (required there) and an optional HTML alternative of the text. */
  subject?: string;
  html?: string | null;
  /** `api` also for a person's reply from the inbox (then `author` names them). */
  origin: 'api' | 'agent';
  /** For a person's reply from the inbox (CONTRACT.md §12): the member, or `api` for a program. */
  author?: { type: 'member'; id: string } | { type: 'api' };
  /** For agent replies: the inbound message(s) answered. */
  in_reply_to?: string[];
  /** A campaign's message: the campaign (its records carry the `campaign` header, see routingHeaders). */
  campaign_id?: string;
  accepted_at: string;
}

/** `whatsapp.webhook`: a provider notification as received (raw body kept byte for byte). */
export interface WhatsappWebhookData {
  /** `twilio`: an SMS or SMS status form webhook (`raw_body` form-encoded), its signature checked by `channel_id`'s token. */
  provider: Exclude<WhatsappProvider, 'sandbox'> | 'twilio';
  /** For 360dialog: the channel the URL named; for twilio: the SMS channel whose auth token signed it. */
  channel_id: string | null;
  raw_body: string;
  received_at: string;
}

/** WhatsApp message types we normalise (anything else arrives as `unsupported`). */
export type InboundMessageType =
  | 'text'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'sticker'
  | 'location'
  | 'contacts'
  | 'interactive'
  | 'button'
  | 'reaction'
  | 'unsupported';

/** `message.inbound`: a customer's message, stored by messaging-service and attributed to a tenant. */
export interface MessageInboundData {
  message_id: string;
  channel: ChannelKind;
  channel_id: string;
  /** Customer: E.164 phone number, or the business-scoped user id when no number is given. */
  from: string;
  /** Business-scoped user id, when the provider sent one. */
  from_user_id: string | null;
  /** The business number (E.164). */
  to: string;
  type: InboundMessageType;
  /** The text, or a text stand-in for other types (e.g. "[image] caption"). */
  text: string;
  provider_message_id: string;
  /** When the customer wrote it (provider timestamp). */
  sent_at: string;
  received_at: string;
  /** The agent configured on the channel (null: the tenant's oldest agent answers, if any). */
  channel_agent: string | null;
  contact_name: string | null;
  /** A media message's file, downloaded from the provider into the media store (CONTRACT.md §13); null when it could not be. */
  media?: InboundMedia | null;
  /** A tapped reply button or list row; its title is also `text`. */
  interactive?: InboundInteractive | null;
}

/** `message.received` (public webhook body, CONTRACT.md §5). */
export interface MessageReceivedData {
  event: 'message.received';
  channel: ChannelKind;
  from: string;
  message: string;
  tenant_id: string;
  agent_response: string | null;
  message_id: string;
  reply_message_id: string | null;
  agent: string | null;
  type: InboundMessageType;
  received_at: string;
  /** A media message's file (`GET /api/v1/media/{id}`), CONTRACT.md §13. */
  media?: InboundMedia | null;
  /** A tapped reply button or list row (its title is `message`). */
  interactive?: InboundInteractive | null;
}

export type OutboundStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface MessageError {
  code: string;
  title: string;
}

/** `message.status` (public webhook body, CONTRACT.md §5). */
export interface MessageStatusData {
  event: 'message.status';
  channel: ChannelKind;
  tenant_id: string;
  message_id: string;
  status: OutboundStatus;
  to: string;
  at: string;
  error?: MessageError;
}

export type MessageOutboundEvent = EventEnvelope<'message.outbound', MessageOutboundData>;
export type WhatsappWebhookEvent = EventEnvelope<'whatsapp.webhook', WhatsappWebhookData>;
export type MessageInboundEvent = EventEnvelope<'message.inbound', MessageInboundData>;
export type MessageReceivedEvent = EventEnvelope<'message.received', MessageReceivedData>;
export type MessageStatusEvent = EventEnvelope<'message.status', MessageStatusData>;

/** Ordering key of everything about one conversation. */
export function conversationKey(tenantId: string, customer: string): string {
  return `${tenantId}:${customer}`;
}
