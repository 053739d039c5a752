import {
  Topics,
  conversationKey,
  derivedId,
  type ConversationHandoffData,
  type ConversationSla,
  type ConversationRatedData,
  type ConversationSlaBreachedData,
  type ConversationView,
  type ConversationUpdateKind,
  type ConversationUpdatedData,
  type MessageOutboundData,
  type OutboundContent,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { StoredEvent } from '../replies/processed-message.entity';
import type { ConversationEntity, SlaTarget } from './conversation.entity';

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
export function toSummary(c: ConversationEntity): ConversationView {
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
    team_id: c.teamId ?? null,
    labels: c.labels ?? [],
    sla: slaOf(c),
    rating: c.ratingScore && c.ratedAt ? { score: c.ratingScore, comment: c.ratingComment ?? null, rated_at: toIso(c.ratedAt) } : null,
    window_expires_at: new Date(c.lastMessageAt.getTime() + SERVICE_WINDOW_MS).toISOString(),
    started_at: c.startedAt.toISOString(),
    last_message_at: c.lastMessageAt.toISOString(),
  };
}

/** Its due times while a team's SLA applies; `breached` once a due time passed unmet (kept after it is met late). */
function slaOf(c: ConversationEntity): ConversationSla | null {
  const first = c.slaFirstResponseDueAt ?? null;
  const resolution = c.slaResolutionDueAt ?? null;
  const breached = (c.slaBreaches ?? []).length > 0;
  if (!first && !resolution && !breached) return null;
  return { first_response_due_at: first ? toIso(first) : null, resolution_due_at: resolution ? toIso(resolution) : null, breached };
}

/** Read back from JSON (the reply flow's one-statement read), a timestamp is a string. */
function toIso(at: Date | string): string {
  return new Date(at).toISOString();
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

/**
 * `message.outbound` to the conversation's customer on its channel and number: a person's reply (origin `api`, with
 * its author) or a message the agent sends on its own (origin `agent`). `eventId` keeps a resend the same event.
 */
export function toCustomerEvent(
  tenantId: string,
  c: ConversationEntity,
  message: { messageId: string; content: OutboundContent; origin: MessageOutboundData['origin']; author?: MessageOutboundData['author']; at: Date; eventId?: string },
): StoredEvent {
  const outbound: MessageOutboundData = {
    message_id: message.messageId,
    channel: c.channel,
    channel_id: c.channelId,
    from: c.businessNumber,
    to: c.customer,
    content: message.content,
    origin: message.origin,
    ...(message.author ? { author: message.author } : {}),
    accepted_at: message.at.toISOString(),
  };
  return { topic: Topics.MessageOutbound, key: conversationKey(tenantId, c.customer), value: EventPublisher.envelope(Topics.MessageOutbound, tenantId, outbound, message.eventId) };
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

/** `conversation.sla_breached` for the tenant's webhooks: once per target per handoff, so its id derives from them. */
export function slaBreachedEvent(tenantId: string, c: ConversationEntity, links: InboxLinks, breach: { target: SlaTarget; dueAt: Date; at: Date }): StoredEvent {
  const data: ConversationSlaBreachedData = {
    event: 'conversation.sla_breached',
    tenant_id: tenantId,
    channel: c.channel,
    conversation_id: c.id,
    customer: c.customer,
    team_id: c.teamId ?? '',
    assignee: c.assignee ?? null,
    target: breach.target,
    due_at: breach.dueAt.toISOString(),
    at: breach.at.toISOString(),
    dashboard_url: links.conversation(c.id),
    contact_name: contactNameOf(c),
  };
  const id = derivedId('evt', 'sla_breached', c.id, breach.target, breach.dueAt.toISOString());
  return { topic: Topics.ConversationSlaBreached, key: conversationKey(tenantId, c.customer), value: EventPublisher.envelope(Topics.ConversationSlaBreached, tenantId, data, id) };
}

/** `conversation.rated` for the tenant's webhooks: once per conversation, so its id derives from it. */
export function ratedEvent(tenantId: string, c: ConversationEntity, links: InboxLinks, rating: { score: number; comment: string | null; at: Date }): StoredEvent {
  const data: ConversationRatedData = {
    event: 'conversation.rated',
    tenant_id: tenantId,
    channel: c.channel,
    conversation_id: c.id,
    customer: c.customer,
    team_id: c.teamId ?? null,
    assignee: c.assignee ?? null,
    score: rating.score,
    comment: rating.comment,
    at: rating.at.toISOString(),
    dashboard_url: links.conversation(c.id),
    contact_name: contactNameOf(c),
  };
  return { topic: Topics.ConversationRated, key: conversationKey(tenantId, c.customer), value: EventPublisher.envelope(Topics.ConversationRated, tenantId, data, derivedId('evt', 'rated', c.id)) };
}
