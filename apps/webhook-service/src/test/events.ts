import { Topics, newId, type EventEnvelope, type MessageReceivedData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';

/** The customer the specs' events are about, unless they say otherwise. */
export const CUSTOMER = '+4915112345678';

/** A message.received as responder-service publishes it (by default unanswered); `overrides` change any field. */
export function messageReceived(tenantId: string, overrides: Partial<MessageReceivedData> = {}): EventEnvelope<'message.received', MessageReceivedData> {
  const data: MessageReceivedData = {
    event: 'message.received',
    channel: 'whatsapp',
    from: CUSTOMER,
    message: 'Do you open on Sundays?',
    tenant_id: tenantId,
    agent_response: null,
    message_id: newId('msg'),
    reply_message_id: null,
    agent: null,
    type: 'text',
    received_at: new Date().toISOString(),
    ...overrides,
  };
  return EventPublisher.envelope(Topics.MessageReceived, tenantId, data);
}
