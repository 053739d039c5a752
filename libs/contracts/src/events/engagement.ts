import type { ConversationSummary } from '../rpc/responder.rpc';
import type { EventEnvelope } from './envelope';
import type { ChannelKind } from './messages';

/** A lead collected by the `lead_capture` skill (a name and a way to reach the person, then whatever else was said) (`GET /api/v1/leads`, CONTRACT.md §9). */
export interface LeadRecord {
  /** @idPrefix led */
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  interest: string | null;
  /** @idPrefix cnv */
  conversation_id: string;
  created_at: string;
}

/** A booking made by the `appointment_booking` skill (`GET /api/v1/appointments`, CONTRACT.md §9). */
export interface AppointmentRecord {
  /** @idPrefix apt */
  id: string;
  /** The customer's phone number (E.164) or business-scoped user id. */
  customer: string;
  starts_at: string;
  ends_at: string;
  timezone: string;
  status: 'booked' | 'cancelled';
  /** @idPrefix cnv */
  conversation_id: string;
}

/** `lead.captured` (public webhook body). */
export interface LeadCapturedData {
  event: 'lead.captured';
  tenant_id: string;
  channel: 'whatsapp';
  agent: string | null;
  lead: LeadRecord;
  at: string;
}

/** `lead.updated` (public webhook body): later details changed a captured lead; `lead` is the whole lead as it now is. */
export interface LeadUpdatedData {
  event: 'lead.updated';
  tenant_id: string;
  channel: 'whatsapp';
  agent: string | null;
  lead: LeadRecord;
  at: string;
}

/** `appointment.booked` (public webhook body). */
export interface AppointmentBookedData {
  event: 'appointment.booked';
  tenant_id: string;
  channel: 'whatsapp';
  agent: string | null;
  appointment: AppointmentRecord;
  at: string;
}

/** `appointment.rescheduled` (public webhook body): the same appointment at another time; `previous` is where it was. */
export interface AppointmentRescheduledData {
  event: 'appointment.rescheduled';
  tenant_id: string;
  channel: 'whatsapp';
  agent: string | null;
  appointment: AppointmentRecord;
  previous: { starts_at: string; ends_at: string };
  at: string;
}

/** `appointment.cancelled` (public webhook body): `appointment.status` is `cancelled`. */
export interface AppointmentCancelledData {
  event: 'appointment.cancelled';
  tenant_id: string;
  channel: 'whatsapp';
  agent: string | null;
  appointment: AppointmentRecord;
  at: string;
}

/**
 * `conversation.handoff` (public webhook body): a person answers the conversation now and the agent is silent until it
 * is given back; sent once per handoff, by the agent's handoff or a member taking over or replying.
 */
export interface ConversationHandoffData {
  event: 'conversation.handoff';
  tenant_id: string;
  channel: ChannelKind;
  conversation_id: string;
  customer: string;
  agent: string | null;
  reason: 'customer_asked_for_human' | 'skill_gave_up' | 'member_took_over' | 'member_replied' | string;
  at: string;
  /** The conversation in the dashboard's inbox: `{gateway public URL}/dashboard/inbox/{conversation_id}`. */
  dashboard_url?: string;
  /** The lead's name or the customer's WhatsApp profile name, when known. */
  contact_name?: string | null;
}

/**
 * `conversation.sla_breached` (public webhook body, CONTRACT.md §18): a handed-off conversation missed one of its
 * team's targets — no person's reply by `due_at` (`first_response`), or not closed by it (`resolution`). Once per
 * target per handoff.
 */
export interface ConversationSlaBreachedData {
  event: 'conversation.sla_breached';
  tenant_id: string;
  channel: ChannelKind;
  conversation_id: string;
  customer: string;
  team_id: string;
  /** Who held it when it breached (null: it was waiting in the team's queue). */
  assignee: string | null;
  target: 'first_response' | 'resolution';
  due_at: string;
  at: string;
  /** The conversation in the dashboard's inbox. */
  dashboard_url: string;
  contact_name: string | null;
}

/**
 * `conversation.rated` (public webhook body, CONTRACT.md §18): the customer answered the satisfaction question sent
 * when the conversation was closed. Once per conversation.
 */
export interface ConversationRatedData {
  event: 'conversation.rated';
  tenant_id: string;
  channel: ChannelKind;
  conversation_id: string;
  customer: string;
  team_id: string | null;
  /** Who held it when it was closed. */
  assignee: string | null;
  /** 1 (very poor) to 5 (excellent). */
  score: number;
  comment: string | null;
  at: string;
  dashboard_url: string;
  contact_name: string | null;
}

/** What changed a conversation in the inbox. */
export type ConversationUpdateKind = 'message' | 'state' | 'assignee' | 'read' | 'note';

/**
 * `conversation.updated` (dashboard only, on the events stream; not a webhook event): a conversation of the inbox
 * changed (a message in either direction, its state, assignee or unread count, a note); `conversation` is it as it now is.
 */
export interface ConversationUpdatedData {
  event: 'conversation.updated';
  tenant_id: string;
  change: ConversationUpdateKind;
  conversation: ConversationSummary;
  at: string;
}

/** `webhook.endpoint_disabled` (public webhook body, sent to the tenant's other endpoints). */
export interface WebhookEndpointDisabledData {
  event: 'webhook.endpoint_disabled';
  tenant_id: string;
  endpoint_id: string;
  url: string;
  reason: 'gone' | 'failing_for_5_days' | string;
  at: string;
}

export type LeadCapturedEvent = EventEnvelope<'lead.captured', LeadCapturedData>;
export type LeadUpdatedEvent = EventEnvelope<'lead.updated', LeadUpdatedData>;
export type AppointmentBookedEvent = EventEnvelope<'appointment.booked', AppointmentBookedData>;
export type AppointmentRescheduledEvent = EventEnvelope<'appointment.rescheduled', AppointmentRescheduledData>;
export type AppointmentCancelledEvent = EventEnvelope<'appointment.cancelled', AppointmentCancelledData>;
export type ConversationHandoffEvent = EventEnvelope<'conversation.handoff', ConversationHandoffData>;
export type ConversationUpdatedEvent = EventEnvelope<'conversation.updated', ConversationUpdatedData>;
export type ConversationRatedEvent = EventEnvelope<'conversation.rated', ConversationRatedData>;
export type ConversationSlaBreachedEvent = EventEnvelope<'conversation.sla_breached', ConversationSlaBreachedData>;
