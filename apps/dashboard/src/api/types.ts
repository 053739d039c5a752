// The shapes the dashboard reads and writes: the API client's schemas, generated from the gateway's OpenAPI document.
import type { components, paths } from '@parley/api-client';

type Schemas = components['schemas'];

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
/** How often a web page document is fetched again (`off`: never). */
export type DocumentRefresh = AgentDocument['refresh'];
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
  'agent.gap_opened': true,
  'agent.tests_completed': true,
  'conversation.sla_breached': true,
  'conversation.rated': true,
  'template.status': true,
  'wallet.low_balance': true,
  'webhook.endpoint_disabled': true,
};
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_SET) as readonly WebhookEventType[];

/**
 * What the playground's customer writes (CONTRACT.md §13): a text (on WhatsApp, or `channel: "sms"`), or a photo
 * (`type: "image"`, its bytes as base64, JPEG or PNG, at most 5 MiB, and an optional caption).
 */
export type PlaygroundWrite = Omit<Schemas['PlaygroundInboundBody'], 'tenant_id'>;
/**
 * A message the sandbox delivered to the playground's customer (the relay answers the sandbox's own shape: the Cloud
 * API's); a text message (`channel: "sms"`) comes in the same shape, `from` the SMS number, without `phone_number_id`.
 */
export type PlaygroundMessage = paths['/api/v1/playground/messages']['get']['responses'][200]['content']['application/json']['data'][number];
