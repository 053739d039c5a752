import { conversationKey } from '@parley/contracts';

type Data = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Data)[name] : undefined);

/**
 * The conversation a public event belongs to, as `tenant:customer` (the producers' Kafka key, CONTRACT topics):
 * the customer's number for message and engagement events, the conversation id for a lead without a phone, the contact
 * id for contact events.
 * null for events outside any conversation (tests, endpoint notices), which ordered endpoints never hold back.
 */
export function orderingKeyOf(tenantId: string, type: string, data: Data): string | null {
  let customer: string | null;
  switch (type) {
    case 'message.received':
      customer = text(data.from);
      break;
    case 'message.status':
      customer = text(data.to);
      break;
    case 'conversation.handoff':
    case 'conversation.sla_breached':
    case 'conversation.rated':
    case 'contact.opted_out':
    case 'contact.opted_in':
      customer = text(data.customer);
      break;
    case 'appointment.booked':
    case 'appointment.rescheduled':
    case 'appointment.cancelled':
      customer = text(field(data.appointment, 'customer'));
      break;
    case 'lead.captured':
    case 'lead.updated':
      customer = text(field(data.lead, 'phone')) ?? text(field(data.lead, 'conversation_id'));
      break;
    // a contact's own events keep their order: keyed by the contact (its number may change or be absent)
    case 'contact.created':
    case 'contact.updated':
      customer = text(field(data.contact, 'id'));
      break;
    case 'contact.deleted':
      customer = text(data.contact_id);
      break;
    // a deal's created and stage changes keep their order: keyed by the deal
    case 'deal.created':
    case 'deal.stage_changed':
      customer = text(field(data.deal, 'id'));
      break;
    case 'campaign.completed':
      customer = text(field(data.campaign, 'id'));
      break;
    default:
      customer = null;
  }
  return customer === null ? null : conversationKey(tenantId, customer);
}
