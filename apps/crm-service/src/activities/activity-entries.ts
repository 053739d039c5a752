import {
  type AppointmentBookedData,
  type AppointmentCancelledData,
  type AppointmentRescheduledData,
  type ContactActivityType,
  type DealCreatedData,
  type DealStageChangedData,
  type LeadRecord,
  type MessageInboundData,
  type MessageOutboundData,
  type OutboundContent,
  richStandIn,
} from '@parley/contracts';

/** A timeline entry to record: whose it is (a contact, or a customer's number) and `source`, unique per fact. */
export interface ActivityEntry {
  contactId: string | null;
  customer: string | null;
  type: ContactActivityType;
  direction: 'in' | 'out' | null;
  channel: string | null;
  text: string | null;
  ref: { kind: 'message' | 'lead' | 'appointment' | 'deal'; id: string } | null;
  dueAt: string | null;
  source: string | null;
  occurredAt: string;
}

const entry = (fields: Partial<ActivityEntry> & Pick<ActivityEntry, 'type' | 'occurredAt'>): ActivityEntry => ({
  contactId: null,
  customer: null,
  direction: null,
  channel: null,
  text: null,
  ref: null,
  dueAt: null,
  source: null,
  ...fields,
});

/** What an outbound message says, as one line: its text, the template's name, or the rich content's stand-in. */
export function outboundText(content: OutboundContent): string {
  if (content.type === 'text') return content.text;
  if (content.type === 'template') return `[template] ${content.template.name}`;
  return richStandIn(content);
}

/** A message's customer as the timeline keys it: the number, or the email address in lower case (as contacts match it). */
const messageCustomer = (channel: string, address: string) => (channel === 'email' ? address.toLowerCase() : address);

/** The customers whose messages are a contact's on its timeline (listed and erased with it): its number and its address. */
export const contactCustomers = (contact: { phone: string | null; email: string | null }): string[] =>
  [contact.phone, contact.email?.toLowerCase()].filter((c): c is string => !!c);

export const inboundMessageEntry = (m: MessageInboundData): ActivityEntry =>
  entry({ customer: messageCustomer(m.channel, m.from), type: 'message', direction: 'in', channel: m.channel, text: m.text, ref: { kind: 'message', id: m.message_id }, source: `message:${m.message_id}`, occurredAt: m.received_at });

export const outboundMessageEntry = (m: MessageOutboundData): ActivityEntry =>
  entry({ customer: messageCustomer(m.channel, m.to), type: 'message', direction: 'out', channel: m.channel, text: outboundText(m.content), ref: { kind: 'message', id: m.message_id }, source: `message:${m.message_id}`, occurredAt: m.accepted_at });

export const leadEntry = (contactId: string, lead: LeadRecord, at: string): ActivityEntry =>
  entry({ contactId, type: 'lead_captured', text: [lead.name, lead.email, lead.interest].filter(Boolean).join(' · ') || null, ref: { kind: 'lead', id: lead.id }, source: `lead:${lead.id}`, occurredAt: at });

type AppointmentData = AppointmentBookedData | AppointmentRescheduledData | AppointmentCancelledData;
const APPOINTMENT_TYPES = { 'appointment.booked': 'appointment_booked', 'appointment.rescheduled': 'appointment_rescheduled', 'appointment.cancelled': 'appointment_cancelled' } as const;

/** `eventId` keys it: a booking rescheduled twice is three entries, each event's redelivery none more. */
export const appointmentEntry = (eventId: string, data: AppointmentData): ActivityEntry =>
  entry({
    customer: data.appointment.customer,
    type: APPOINTMENT_TYPES[data.event],
    text: `${data.appointment.starts_at} – ${data.appointment.ends_at} (${data.appointment.timezone})`,
    ref: { kind: 'appointment', id: data.appointment.id },
    source: `event:${eventId}`,
    occurredAt: data.at,
  });

export const dealEntry = (eventId: string, data: DealCreatedData | DealStageChangedData): ActivityEntry =>
  entry({
    contactId: data.deal.contact_id,
    type: data.event === 'deal.created' ? 'deal_created' : 'deal_stage_changed',
    text: data.event === 'deal.created' ? `${data.deal.title} (${data.deal.stage})` : `${data.deal.title}: ${data.previous_stage} → ${data.deal.stage}`,
    ref: { kind: 'deal', id: data.deal.id },
    source: `event:${eventId}`,
    occurredAt: data.at,
  });
