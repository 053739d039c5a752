import {
  Topics,
  conversationKey,
  derivedId,
  type AppointmentBookedData,
  type AppointmentCancelledData,
  type AppointmentRecord,
  type AppointmentRescheduledData,
  type ContactOptedInData,
  type ContactOptedOutData,
  type LeadCapturedData,
  type LeadUpdatedData,
  type MessageInboundData,
  type MessageOutboundData,
  type MessageReceivedData,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { HeldSlot } from '../appointments/appointments.store';
import type { SavedLead } from '../leads/leads.store';
import type { StoredEvent } from './processed-message.entity';
import type { OptRequest } from './opt-out';

/** The reply's message id: derived from the inbound one, so every retry lands on the same send. */
export function replyMessageId(inboundMessageId: string): string {
  return derivedId('msg', 'reply', inboundMessageId);
}

/** The reply as sent: one per burst of customer messages, answering each of `inReplyTo`. */
export interface SentReply {
  agentName: string;
  messageId: string;
  text: string;
  acceptedAt: Date;
  /** The inbound messages it answers, oldest first (several when they arrived in a burst, CONTRACT.md §10). */
  inReplyTo: string[];
}

/** The reply to send, as `message.outbound`; its event id derives from the last message it answers, like its message id. */
export function outboundEvent(tenantId: string, last: MessageInboundData, reply: SentReply): StoredEvent {
  const outbound: MessageOutboundData = {
    message_id: reply.messageId,
    channel: last.channel ?? 'whatsapp',
    channel_id: last.channel_id,
    from: last.to,
    to: last.from,
    content: { type: 'text', text: reply.text },
    origin: 'agent',
    in_reply_to: reply.inReplyTo,
    accepted_at: reply.acceptedAt.toISOString(),
  };
  return {
    topic: Topics.MessageOutbound,
    key: conversationKey(tenantId, last.from),
    value: EventPublisher.envelope(Topics.MessageOutbound, tenantId, outbound, derivedId('evt', 'outbound', last.message_id)),
  };
}

/**
 * The public `message.received` of one inbound message, whose `agent` names the agent that wrote `agent_response`
 * (null when none did). Its id derives from the inbound message, so republishing can never duplicate it.
 */
export function receivedEvent(tenantId: string, inbound: MessageInboundData, reply: SentReply | null): StoredEvent {
  const received: MessageReceivedData = {
    event: 'message.received',
    channel: inbound.channel ?? 'whatsapp',
    from: inbound.from,
    message: inbound.text,
    tenant_id: tenantId,
    agent_response: reply?.text ?? null,
    message_id: inbound.message_id,
    reply_message_id: reply?.messageId ?? null,
    agent: reply?.agentName ?? null,
    type: inbound.type,
    received_at: inbound.received_at,
    ...(inbound.media !== undefined ? { media: inbound.media } : {}),
    ...(inbound.interactive !== undefined ? { interactive: inbound.interactive } : {}),
  };
  return {
    topic: Topics.MessageReceived,
    key: conversationKey(tenantId, inbound.from),
    value: EventPublisher.envelope(Topics.MessageReceived, tenantId, received, derivedId('evt', 'received', inbound.message_id)),
  };
}

/** What a reply did to the conversation's appointment: booked, moved (same id) or cancelled. */
export type AppointmentChange = HeldSlot | { change: 'cancelled'; appointment: AppointmentRecord };

/** What a reply did besides answering: the public events the tenant's webhooks receive. */
export interface ReplyOutcome {
  conversationId: string;
  agentName: string;
  lead: SavedLead | null;
  appointment: AppointmentChange | null;
}

/**
 * `lead.captured` or `lead.updated`, and `appointment.booked`, `.rescheduled` or `.cancelled` for one handled inbound
 * message (`conversation.handoff` is built with the conversation, inbox-events.ts). Their ids derive from the inbound message like the reply's, so republishing after
 * a crash cannot duplicate them.
 */
export function engagementEvents(tenantId: string, inbound: MessageInboundData, outcome: ReplyOutcome, at: Date): StoredEvent[] {
  const key = conversationKey(tenantId, inbound.from);
  const common = { tenant_id: tenantId, channel: 'whatsapp' as const, agent: outcome.agentName, at: at.toISOString() };
  const events: StoredEvent[] = [];
  const lead = outcome.lead;
  if (lead?.change === 'captured') {
    const data: LeadCapturedData = { event: 'lead.captured', ...common, lead: lead.lead };
    events.push({ topic: Topics.LeadCaptured, key, value: EventPublisher.envelope(Topics.LeadCaptured, tenantId, data, derivedId('evt', 'lead', inbound.message_id)) });
  } else if (lead?.change === 'updated') {
    const data: LeadUpdatedData = { event: 'lead.updated', ...common, lead: lead.lead };
    events.push({ topic: Topics.LeadUpdated, key, value: EventPublisher.envelope(Topics.LeadUpdated, tenantId, data, derivedId('evt', 'lead.updated', inbound.message_id)) });
  }
  const held = outcome.appointment;
  if (held?.change === 'booked') {
    const data: AppointmentBookedData = { event: 'appointment.booked', ...common, appointment: held.appointment };
    events.push({
      topic: Topics.AppointmentBooked,
      key,
      value: EventPublisher.envelope(Topics.AppointmentBooked, tenantId, data, derivedId('evt', 'appointment', inbound.message_id)),
    });
  } else if (held?.change === 'rescheduled') {
    const data: AppointmentRescheduledData = { event: 'appointment.rescheduled', ...common, appointment: held.appointment, previous: held.previous };
    events.push({
      topic: Topics.AppointmentRescheduled,
      key,
      value: EventPublisher.envelope(Topics.AppointmentRescheduled, tenantId, data, derivedId('evt', 'appointment.rescheduled', inbound.message_id)),
    });
  } else if (held?.change === 'cancelled') {
    const data: AppointmentCancelledData = { event: 'appointment.cancelled', ...common, appointment: held.appointment };
    events.push({
      topic: Topics.AppointmentCancelled,
      key,
      value: EventPublisher.envelope(Topics.AppointmentCancelled, tenantId, data, derivedId('evt', 'appointment.cancelled', inbound.message_id)),
    });
  }
  return events;
}

/** `contact.opted_out` or `contact.opted_in` for the customer's message that asked for it; its id derives from that message. */
export function optChangeEvent(tenantId: string, inbound: MessageInboundData, request: OptRequest): StoredEvent {
  const common = { tenant_id: tenantId, channel: 'whatsapp' as const, customer: inbound.from, message_id: inbound.message_id, keyword: request.keyword, at: inbound.received_at };
  const key = conversationKey(tenantId, inbound.from);
  const id = derivedId('evt', request.change, inbound.message_id);
  if (request.change === 'opted_out') {
    const data: ContactOptedOutData = { event: 'contact.opted_out', ...common };
    return { topic: Topics.ContactOptedOut, key, value: EventPublisher.envelope(Topics.ContactOptedOut, tenantId, data, id) };
  }
  const data: ContactOptedInData = { event: 'contact.opted_in', ...common };
  return { topic: Topics.ContactOptedIn, key, value: EventPublisher.envelope(Topics.ContactOptedIn, tenantId, data, id) };
}
