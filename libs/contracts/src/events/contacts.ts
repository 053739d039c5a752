import type { EventEnvelope } from './envelope';

/** What `contact.opted_out` and `contact.opted_in` carry (CONTRACT.md §12). */
interface ContactOptChange {
  tenant_id: string;
  channel: 'whatsapp';
  /** The customer: E.164 number or business-scoped user id. */
  customer: string;
  /** The customer's message that asked for it, and the keyword it was read as. */
  message_id: string;
  keyword: string;
  at: string;
}

/** `contact.opted_out` (public webhook body): the customer wrote STOP (or an equivalent) and gets no marketing now. */
export interface ContactOptedOutData extends ContactOptChange {
  event: 'contact.opted_out';
}

/** `contact.opted_in` (public webhook body): the customer wrote START (or an equivalent) and may get marketing again. */
export interface ContactOptedInData extends ContactOptChange {
  event: 'contact.opted_in';
}

export type ContactOptedOutEvent = EventEnvelope<'contact.opted_out', ContactOptedOutData>;
export type ContactOptedInEvent = EventEnvelope<'contact.opted_in', ContactOptedInData>;
