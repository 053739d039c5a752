// The shapes the dashboard reads and writes: the API client's schemas, generated from the gateway's OpenAPI document.
import type { components } from '@parley/api-client';

type Schemas = components['schemas'];

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export type Account = Schemas['CreatedAccount'];
export type Channel = Schemas['ConnectedChannel'];
export type Provider = Channel['provider'];
export type ConnectChannelBody = Omit<Schemas['ConnectWhatsappChannelBody'], 'tenant_id'>;
export type Agent = Schemas['Agent'];
export type AgentBody = Omit<Schemas['UpsertAgentBody'], 'tenant_id'>;
export type Skill = Agent['skills'][number];
export type Faq = Schemas['FaqDto'];
export type Booking = Schemas['BookingDto'];
export type AgentVersionSummary = Schemas['AgentVersionSummary'];
export type AgentVersion = Schemas['AgentVersion'];
export type AgentTestResult = Schemas['AgentTestResult'];
export type AgentDocument = Schemas['Document'];
export type WebhookEndpoint = Schemas['Webhook'];
export type WebhookEventType = WebhookEndpoint['events'][number];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type ApiKey = Schemas['ApiKey'];
export type Message = Schemas['Message'];
export type ConversationSummary = Schemas['Conversation'];
export type Conversation = Schemas['ConversationDetail'];
export type Lead = Schemas['Lead'];
export type Appointment = Schemas['Appointment'];
export type Usage = Schemas['Usage'];

export const SKILLS: readonly Skill[] = ['faq_responder', 'lead_capture', 'appointment_booking'];
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/**
 * Every event type an endpoint may receive. Keyed by the API's own list (libs/contracts' WEBHOOK_EVENT_TYPES, through
 * the generated client), so an event added there fails this file's typecheck until it is offered here: it cannot drift.
 */
const WEBHOOK_EVENT_SET: Record<WebhookEventType, true> = {
  'message.received': true,
  'message.status': true,
  'conversation.handoff': true,
  'lead.captured': true,
  'lead.updated': true,
  'appointment.booked': true,
  'appointment.rescheduled': true,
  'appointment.cancelled': true,
  'contact.created': true,
  'contact.updated': true,
  'contact.deleted': true,
  'contact.opted_out': true,
  'contact.opted_in': true,
  'deal.created': true,
  'deal.stage_changed': true,
  'campaign.completed': true,
  'template.status': true,
  'wallet.low_balance': true,
  'webhook.endpoint_disabled': true,
};
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_SET) as readonly WebhookEventType[];

/** A media object of a Cloud API message (the sandbox's own id, not a stored `med_…`). */
export interface CloudMedia {
  id?: string;
  link?: string;
  caption?: string;
  filename?: string;
  mime_type?: string;
}

/**
 * A message the sandbox delivered to the playground's customer (the relay answers the sandbox's own shape: the Cloud
 * API's); a text message (`channel: "sms"`) comes in the same shape, `from` the SMS number, without `phone_number_id`.
 */
export interface PlaygroundMessage {
  id: string;
  channel?: 'whatsapp' | 'sms';
  phone_number_id: string | null;
  from?: string;
  to: string;
  type: string;
  text?: { body: string };
  image?: CloudMedia;
  document?: CloudMedia;
  audio?: CloudMedia;
  video?: CloudMedia;
  sticker?: CloudMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  interactive?: {
    type: string;
    body?: { text: string };
    action?: { button?: string; buttons?: { reply?: { title?: string } }[]; sections?: { rows?: { title?: string }[] }[] };
  };
  template?: { name: string; language?: { code?: string } };
  timestamp: string;
}
