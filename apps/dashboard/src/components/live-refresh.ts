import type { LiveEvent } from '../session/live-events';
import type { LiveRefresh } from './live-query';

/** The event types the stream carries (the webhook event types, CONTRACT.md §5). */
const MESSAGE_EVENTS = ['message.received', 'message.status'] as const;
const LEAD_EVENTS = ['lead.captured', 'lead.updated'] as const;
const APPOINTMENT_EVENTS = ['appointment.booked', 'appointment.rescheduled', 'appointment.cancelled'] as const;
const ENGAGEMENT_EVENTS = [...LEAD_EVENTS, ...APPOINTMENT_EVENTS, 'conversation.handoff'] as const;

/** The message log: a message came in, or one sent changed status. */
export const MESSAGES_LIVE: LiveRefresh = { events: MESSAGE_EVENTS };

/** Conversations: their messages, and what the agents made of them. */
export const CONVERSATIONS_LIVE: LiveRefresh = { events: [...MESSAGE_EVENTS, ...ENGAGEMENT_EVENTS] };
export const LEADS_LIVE: LiveRefresh = { events: LEAD_EVENTS };
export const APPOINTMENTS_LIVE: LiveRefresh = { events: APPOINTMENT_EVENTS };

/**
 * Webhook deliveries follow every event: the webhook service delivers it a moment later (and retries), and no event
 * says so, so the list is read again a few times after each.
 */
export const DELIVERIES_LIVE: LiveRefresh = { events: [...MESSAGE_EVENTS, ...ENGAGEMENT_EVENTS], delaysMs: [1000, 3000, 8000] };

/** Whether an event is about one customer (its number is `from`, `to` or `customer` depending on the event). */
export function concernsCustomer(event: LiveEvent, customer: string | undefined): boolean {
  if (!customer) return true;
  const { from, to } = event.data;
  const nested = event.data.customer ?? (event.data.appointment as { customer?: unknown } | undefined)?.customer;
  return from === customer || to === customer || nested === customer;
}
