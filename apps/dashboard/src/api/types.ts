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
export const WEBHOOK_EVENTS: readonly WebhookEventType[] = [
  'message.received',
  'message.status',
  'lead.captured',
  'lead.updated',
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.cancelled',
  'conversation.handoff',
  'webhook.endpoint_disabled',
];

/** A media object of a Cloud API message (the sandbox's own id, not a stored `med_…`). */
export interface CloudMedia {
  id?: string;
  link?: string;
  caption?: string;
  filename?: string;
  mime_type?: string;
}

/** A message the sandbox delivered to the playground's customer (the relay answers the sandbox's own shape: the Cloud API's). */
export interface PlaygroundMessage {
  id: string;
  phone_number_id: string;
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
