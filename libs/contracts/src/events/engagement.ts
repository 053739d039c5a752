import type { EventEnvelope } from './envelope';

/** A lead collected by the `lead_capture` skill (a name and a way to reach the person, then whatever else was said) (`GET /api/v1/leads`, CONTRACT.md §9). */
export interface LeadRecord {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  interest: string | null;
  conversation_id: string;
  created_at: string;
}

/** A booking made by the `appointment_booking` skill (`GET /api/v1/appointments`, CONTRACT.md §9). */
export interface AppointmentRecord {
  id: string;
  /** The customer's phone number (E.164) or business-scoped user id. */
  customer: string;
  starts_at: string;
  ends_at: string;
  timezone: string;
  status: 'booked' | 'cancelled';
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

/** `conversation.handoff` (public webhook body): the agent went silent until the tenant releases the conversation. */
export interface ConversationHandoffData {
  event: 'conversation.handoff';
  tenant_id: string;
  channel: 'whatsapp';
  conversation_id: string;
  customer: string;
  agent: string | null;
  reason: 'customer_asked_for_human' | 'skill_gave_up' | string;
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
