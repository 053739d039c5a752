import type { ChannelKind, ChannelProvider, EmailProvider, InboundMessageType, MessageError, OutboundStatus, SmsProvider, VoiceProvider, WhatsappProvider } from '../events/messages';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** A connected WhatsApp or SMS number or email address (CONTRACT.md §6, §17). Credentials are never part of it. */
export interface ChannelRecord {
  /** @idPrefix chn */
  id: string;
  /**
   * The kind of channel; absent on records written before SMS and email existed (then `whatsapp`).
   * @apiDescription The kind of channel.
   */
  channel?: ChannelKind;
  provider: ChannelProvider;
  /** The number (E.164); for an email channel its address (also in `address`). */
  phone_number: string;
  /** Email channels: the address mail is sent from and received at. */
  address?: string;
  /** The provider's id of the number; a 360dialog channel connected without one has null. */
  phone_number_id: string | null;
  waba_id: string | null;
  status: 'connected' | 'disconnected';
  agent: string | null;
  is_default: boolean;
  /**
   * Messages per second this number may send; null: the provider default (none for sandbox numbers).
   * @apiType integer
   */
  send_limit_per_second: number | null;
  created_at: string;
}

// Always with its kind: `channel` is optional in `ChannelRecord` only for `channel.changed` events recorded before SMS
// and email existed.
/** A connected WhatsApp, SMS or voice number or email address (CONTRACT.md §6, §17). Credentials are never part of it. */
export type ChannelView = ChannelRecord & { channel: ChannelKind };

/** A channel just connected. A 360dialog channel's `inbound_token` is only ever shown here (CONTRACT.md §6). */
export type ConnectedChannelRecord = ChannelView & {
  /** 360dialog channels only, shown this once. */
  inbound_token?: string;
};

export interface ConnectChannelRequest {
  provider: WhatsappProvider;
  phone_number?: string;
  phone_number_id?: string;
  waba_id?: string;
  access_token?: string;
  agent?: string;
  is_default?: boolean;
}

/** `POST /api/v1/channels/sms` (CONTRACT.md §17); the credentials are stored encrypted. */
export interface ConnectSmsChannelRequest {
  provider: SmsProvider;
  phone_number: string;
  account_sid?: string;
  auth_token?: string;
  agent?: string;
}

/** `POST /api/v1/channels/email` (CONTRACT.md §17); `smtp_url` (with its credentials) is stored encrypted. */
export interface ConnectEmailChannelRequest {
  provider: EmailProvider;
  address: string;
  smtp_url?: string;
  agent?: string;
}

/** `POST /api/v1/channels/voice` (CONTRACT.md §17); the credentials are stored encrypted. */
export interface ConnectVoiceChannelRequest {
  provider: VoiceProvider;
  phone_number: string;
  account_sid?: string;
  auth_token?: string;
  /** Where a caller who asks for a person is connected (`<Dial>`); none: the agent keeps the call. */
  forward_to?: string;
  /** What the caller hears first; default "Hello! How can I help you today?". */
  greeting?: string;
  /** The `<Say>`/`<Gather>` language (BCP 47, e.g. `en-US`, or a bare `en`); default `en-US`. */
  language?: string;
  agent?: string;
}

/**
 * A Twilio Voice webhook as the gateway received it (CONTRACT.md §17): which of our voice URLs was called, the URLs
 * it may have been signed for, the form and its `X-Twilio-Signature`. messaging-service authenticates it against the
 * auth token of the voice channel called (`To`) and answers the TwiML to speak.
 */
export interface TwilioVoiceWebhook {
  /** `call`: the number's voice URL (a new call, or a Gather's speech result); `reply`: a filler's redirect; `status`: the status callback. */
  route: 'call' | 'reply' | 'status';
  /** The conversation turn the URL names (`?turn=`), when it names one. */
  turn: string | null;
  /** How many fillers this turn has played already (`?attempt=` of a redirect). */
  attempt: string | null;
  urls: string[];
  raw_body: string;
  signature: string;
}

export type TwilioVoiceWebhookResult = { valid: false } | { valid: true; twiml: string };

/** A Twilio webhook to authenticate: the URL Twilio called and its form parameters, as received. */
export interface TwilioSignatureCheck {
  /** The URLs the request may have been signed for (the public base URL's, the Host header's). */
  urls: string[];
  params: Record<string, string>;
  signature: string;
  /** Our number in the webhook: `To` of an inbound message, `From` of a status callback. */
  phone_number: string;
}

export interface UpdateChannelRequest {
  agent?: string | null;
  is_default?: boolean;
  send_limit_per_second?: number | null;
}

/** Every status a message record can have (CONTRACT.md §4): an outbound message's, or `received` for an inbound one. */
export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'received'] as const satisfies readonly (OutboundStatus | 'received')[];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Where a message stands (`messages.statuses`). */
export interface MessageStatusRecord {
  message_id: string;
  status: MessageStatus;
  error?: MessageError;
  /** An email's subject line, when it has one (the inbox shows an email thread's subject). */
  subject?: string;
}

/** A message as `GET /api/v1/messages/{id}` answers it (CONTRACT.md §4). */
export interface MessageRecord {
  /** @idPrefix msg */
  message_id: string;
  direction: 'outbound' | 'inbound';
  channel: ChannelKind;
  from: string;
  to: string;
  type: InboundMessageType | 'template';
  message: string;
  status: MessageStatus;
  status_history: { status: string; at: string }[];
  error?: MessageError;
  /** A customer's email: its attachments, in the media store (`GET /api/v1/media/{id}`). */
  attachments?: MessageAttachment[];
  /** A customer's email: the SPF/DKIM/DMARC results its Authentication-Results (or Received-SPF) header stated; recorded, not enforced. */
  authentication?: MailAuthenticationResults;
  created_at: string;
}

/** `POST /v1/send` (CONTRACT.md §4): the message is durably queued for its channel. */
export interface SendResult {
  status: 'sent';
  /** @idPrefix msg */
  message_id: string;
}

export interface MessageAttachment {
  /** @idPrefix med */
  id: string;
  mime_type: string;
  /** @apiType integer */
  size: number;
  filename: string | null;
}

/** As `Authentication-Results` (RFC 8601) or `Received-SPF` stated them, e.g. `pass`, `fail`, `softfail`, `none`. */
export interface MailAuthenticationResults {
  spf: string | null;
  dkim: string | null;
  dmarc: string | null;
  authserv_id: string | null;
}

export interface MessageListQuery extends ListQuery {
  direction?: 'outbound' | 'inbound';
  to?: string;
  from?: string;
  since?: string;
}

/** messaging-service's request-reply patterns. */
export interface MessagingRpc {
  /** Gives a new account its own sandbox number (CONTRACT.md §2). */
  'channels.provision-sandbox': { service: 'messaging'; request: TenantScoped; response: ChannelView };
  'channels.list': { service: 'messaging'; request: TenantScoped & ListQuery; response: Page<ChannelView> };
  /** Whether `phone_number` is one of the tenant's connected numbers (the `from` of a send): 404 when not. */
  'channels.resolve-sender': { service: 'messaging'; request: TenantScoped & { phone_number: string }; response: ChannelView };
  /** Connects a number (`meta`, `360dialog`) or provisions a sandbox one; 409 when the number is connected already. */
  'channels.connect': { service: 'messaging'; request: TenantScoped & { body: ConnectChannelRequest }; response: ConnectedChannelRecord };
  /** Server side of Meta's embedded signup: code → token, subscribe, register, read the number → a `meta` channel. */
  'channels.embedded-signup': { service: 'messaging'; request: TenantScoped & { code: string; waba_id: string; phone_number_id: string }; response: ChannelView };
  'channels.update': { service: 'messaging'; request: TenantScoped & { channel_id: string; body: UpdateChannelRequest }; response: ChannelView };
  /** Disconnects the number and forgets its credentials; 404 when the tenant has no such channel. */
  'channels.delete': { service: 'messaging'; request: TenantScoped & { channel_id: string }; response: { deleted: true } };
  /**
   * Whether `token` is the inbound token of 360dialog channel `channel_id` (the gateway caches the answer briefly).
   * Not tenant-scoped: it is how an unauthenticated provider request is attributed in the first place.
   */
  'channels.verify-inbound-token': { service: 'messaging'; request: { channel_id: string; token: string }; response: { valid: boolean } };
  'channels.connect-sms': { service: 'messaging'; request: TenantScoped & { body: ConnectSmsChannelRequest }; response: ChannelView };
  'channels.connect-email': { service: 'messaging'; request: TenantScoped & { body: ConnectEmailChannelRequest }; response: ChannelView };
  /**
   * Whether a Twilio webhook carries a valid `X-Twilio-Signature` of the SMS channel with that number (its auth token
   * never leaves messaging-service); answers that channel. Not tenant-scoped: it attributes the request.
   */
  'channels.verify-twilio-signature': { service: 'messaging'; request: TwilioSignatureCheck; response: { valid: boolean; channel_id: string | null } };
  'channels.connect-voice': { service: 'messaging'; request: TenantScoped & { body: ConnectVoiceChannelRequest }; response: ChannelView };
  /** A Twilio Voice webhook, authenticated and answered with TwiML (not tenant-scoped: the number called attributes it). */
  'channels.voice-webhook': { service: 'messaging'; request: TwilioVoiceWebhook; response: TwilioVoiceWebhookResult };
  'messages.get': { service: 'messaging'; request: TenantScoped & { message_id: string }; response: MessageRecord };
  'messages.list': { service: 'messaging'; request: TenantScoped & MessageListQuery; response: Page<MessageRecord> };
  /** The statuses of a tenant's messages (at most 1000 ids; another tenant's or an unknown id is left out): the inbox's ticks. */
  'messages.statuses': { service: 'messaging'; request: TenantScoped & { message_ids: string[] }; response: { data: MessageStatusRecord[] } };
}
