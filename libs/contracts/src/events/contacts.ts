import type { EventEnvelope } from './envelope';

/** What `contact.opted_out` and `contact.opted_in` carry (CONTRACT.md §12). */
interface ContactOptChange {
  tenant_id: string;
  /** `sms`: a carrier keyword (STOP, START…) on an SMS number, which opts the number out of that channel (CONTRACT.md §17). */
  channel: 'whatsapp' | 'sms';
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

/**
 * A contact's attribute values (CONTRACT.md §14): strings, numbers and booleans only.
 * @apiSchema {maxProperties: 50}
 */
export type ContactAttributes = Record<string, string | number | boolean>;

/** A contact (`GET /api/v1/contacts/{id}`, CONTRACT.md §14). */
export interface ContactRecord {
  /** @idPrefix ctc */
  id: string;
  /** E.164; at most one contact per number and tenant. */
  phone: string | null;
  email: string | null;
  name: string | null;
  /** @idPrefix cmp */
  company_id: string | null;
  tags: string[];
  attributes: ContactAttributes;
  /** The customer wrote STOP (`contact.opted_out`) and not START since. */
  opted_out: boolean;
  created_at: string;
  updated_at: string;
}

/** What a contact's timeline holds (CONTRACT.md §14); `note`, `call` and `task` are the ones added by hand. */
export type ContactActivityType =
  | 'message'
  | 'lead_captured'
  | 'appointment_booked'
  | 'appointment_rescheduled'
  | 'appointment_cancelled'
  | 'deal_created'
  | 'deal_stage_changed'
  | 'note'
  | 'call'
  | 'task';

/** One entry of `GET /api/v1/contacts/{id}/activities`, newest first. */
export interface ContactActivityRecord {
  /** @idPrefix act */
  id: string;
  type: ContactActivityType;
  occurred_at: string;
  /** Messages: the channel it came or went on (`whatsapp`, `sms`, `email`, …); null otherwise. */
  channel: string | null;
  /** Messages: `in` from the customer, `out` to them; null otherwise. */
  direction: 'in' | 'out' | null;
  /** A message's text (a stand-in such as "[image] caption" for others), a note's text, what happened to a deal or appointment. */
  text: string | null;
  /** What the entry is about: a message, lead, appointment or deal id. */
  ref: { kind: 'message' | 'lead' | 'appointment' | 'deal'; id: string } | null;
  /** Tasks: when it is due. */
  due_at: string | null;
}

/** A company (`GET /api/v1/companies/{id}`, CONTRACT.md §14). */
export interface CompanyRecord {
  /** @idPrefix cmp */
  id: string;
  name: string;
  domain: string | null;
  attributes: ContactAttributes;
  created_at: string;
  updated_at: string;
}

/** `contact.created` (public webhook body): by the API, an import, a customer's first message or a captured lead. */
export interface ContactCreatedData {
  event: 'contact.created';
  tenant_id: string;
  contact: ContactRecord;
  at: string;
}

/** `contact.updated` (public webhook body): `contact` is the whole contact as it now is. */
export interface ContactUpdatedData {
  event: 'contact.updated';
  tenant_id: string;
  contact: ContactRecord;
  at: string;
}

/**
 * `contact.deleted` (public webhook body): the contact is gone. `phone` and `email` are what it was known by, so each
 * service holding the customer's data can find and erase it.
 */
export interface ContactDeletedData {
  event: 'contact.deleted';
  tenant_id: string;
  contact_id: string;
  phone: string | null;
  email: string | null;
  at: string;
}

export type ContactCreatedEvent = EventEnvelope<'contact.created', ContactCreatedData>;
export type ContactUpdatedEvent = EventEnvelope<'contact.updated', ContactUpdatedData>;
export type ContactDeletedEvent = EventEnvelope<'contact.deleted', ContactDeletedData>;
