import {
  Topics,
  conversationKey,
  derivedId,
  type MessageInboundData,
  type MessageOutboundData,
  type MessageReceivedData,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { StoredEvent } from './processed-message.entity';

/** The reply's message id: derived from the inbound one, so every retry lands on the same send. */
export function replyMessageId(inboundMessageId: string): string {
  return derivedId('msg', 'reply', inboundMessageId);
}

/**
 * The events one handled inbound message produces: the reply to send (when an agent answered) and the public
 * `message.received`, whose `agent` names the agent that wrote `agent_response` (null when none did). Ids are derived from the inbound message, so republishing can never duplicate them.
 */
export function replyEvents(
  tenantId: string,
  inbound: MessageInboundData,
  reply: { agentName: string; messageId: string; text: string; acceptedAt: Date } | null,
): StoredEvent[] {
  const key = conversationKey(tenantId, inbound.from);
  const events: StoredEvent[] = [];
  if (reply) {
    const outbound: MessageOutboundData = {
      message_id: reply.messageId,
      channel: 'whatsapp',
      channel_id: inbound.channel_id,
      from: inbound.to,
      to: inbound.from,
      content: { type: 'text', text: reply.text },
      origin: 'agent',
      in_reply_to: [inbound.message_id],
      accepted_at: reply.acceptedAt.toISOString(),
    };
    events.push({
      topic: Topics.MessageOutbound,
      key,
      value: EventPublisher.envelope(Topics.MessageOutbound, tenantId, outbound, derivedId('evt', 'outbound', inbound.message_id)),
    });
  }
  const received: MessageReceivedData = {
    event: 'message.received',
    channel: 'whatsapp',
    from: inbound.from,
    message: inbound.text,
    tenant_id: tenantId,
    agent_response: reply?.text ?? null,
    message_id: inbound.message_id,
    reply_message_id: reply?.messageId ?? null,
    agent: reply?.agentName ?? null,
    type: inbound.type,
    received_at: inbound.received_at,
  };
  events.push({
    topic: Topics.MessageReceived,
    key,
    value: EventPublisher.envelope(Topics.MessageReceived, tenantId, received, derivedId('evt', 'received', inbound.message_id)),
  });
  return events;
}
