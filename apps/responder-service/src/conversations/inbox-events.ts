import {
  Topics,
  conversationKey,
  derivedId,
  type ConversationHandoffData,
  type ConversationSummary,
  type ConversationUpdateKind,
  type ConversationUpdatedData,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { StoredEvent } from '../replies/processed-message.entity';
import type { ConversationEntity } from './conversation.entity';

/** The customer-service window: free-form messages only within 24 h of the customer's last one (CONTRACT.md §4). */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The gateway's public base URL, for links into the dashboard. */
export class InboxLinks {
  constructor(private readonly publicUrl: string) {}

  conversation(id: string): string {
    return `${this.publicUrl.replace(/\/+$/, '')}/dashboard/inbox/${id}`;
  }
}

/** The contact's name: as crm-service knows it, else the lead's, else the WhatsApp profile's. */
export function contactNameOf(c: Pick<ConversationEntity, 'contactName' | 'leadName' | 'profileName'>): string | null {
  return c.contactName ?? c.leadName ?? c.profileName ?? null;
}

/** The conversation as the inbox shows it. */
export function toSummary(c: ConversationEntity): ConversationSummary {
  return {
    id: c.id,
    channel: c.channel,
    channel_id: c.channelId,
    customer: c.customer,
    contact_name: contactNameOf(c),
    state: c.state,
    assignee: c.assignee ?? null,
    unread: c.unread ?? 0,
    last_message: c.lastMessage ?? null,
    last_customer_message: c.lastCustomerMessage ?? null,
    source: c.source ?? 'customer',
    window_expires_at: new Date(c.lastMessageAt.getTime() + SERVICE_WINDOW_MS).toISOString(),
    started_at: c.startedAt.toISOString(),
    last_message_at: c.lastMessageAt.toISOString(),
  };
}

/**
 * `conversation.updated` for the dashboards' events stream. `causeId` (a message or note id) makes the event id
 * stable where the change may be published again (a redelivered inbound message); otherwise a fresh id.
 */
export function conversationUpdatedEvent(tenantId: string, c: ConversationEntity, change: ConversationUpdateKind, at: Date, causeId?: string): StoredEvent {
  const data: ConversationUpdatedData = { event: 'conversation.updated', tenant_id: tenantId, change, conversation: toSummary(c), at: at.toISOString() };
  const id = causeId ? derivedId('evt', 'conversation.updated', change, causeId) : undefined;
  return { topic: Topics.ConversationUpdated, key: conversationKey(tenantId, c.customer), value: EventPublisher.envelope(Topics.ConversationUpdated, tenantId, data, id) };
}

/** `conversation.handoff` for the tenant's webhooks: a person answers now; `causeId` makes its id stable. */
export function handoffEvent(
  tenantId: string,
  c: ConversationEntity,
  links: InboxLinks,
  handoff: { agent: string | null; reason: ConversationHandoffData['reason']; at: Date; causeId?: string },
): StoredEvent {
  const data: ConversationHandoffData = {
    event: 'conversation.handoff',
    tenant_id: tenantId,
    channel: c.channel,
    conversation_id: c.id,
    customer: c.customer,
    agent: handoff.agent,
    reason: handoff.reason,
    at: handoff.at.toISOString(),
    dashboard_url: links.conversation(c.id),
    contact_name: contactNameOf(c),
  };
  const id = handoff.causeId ? derivedId('evt', 'handoff', handoff.causeId) : undefined;
  return { topic: Topics.ConversationHandoff, key: conversationKey(tenantId, c.customer), value: EventPublisher.envelope(Topics.ConversationHandoff, tenantId, data, id) };
}
