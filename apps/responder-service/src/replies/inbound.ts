import type { MessageInboundData, MessageInboundEvent } from '@parley/contracts';
import { MalformedEventError } from '../common/malformed-event.error';

const REQUIRED_STRINGS = ['message_id', 'channel_id', 'from', 'to', 'type', 'text', 'sent_at', 'received_at'] as const;

/** The tenant and data of a `message.inbound` event, checked enough that handling it cannot go wrong halfway. */
export function parseInbound(event: MessageInboundEvent): { tenantId: string; inbound: MessageInboundData } {
  const data = event?.data as Partial<MessageInboundData> | undefined;
  if (typeof event?.tenant_id !== 'string' || !event.tenant_id) throw new MalformedEventError('message.inbound', 'tenant_id is required');
  if (!data || typeof data !== 'object') throw new MalformedEventError('message.inbound', 'data is required');
  const missing = REQUIRED_STRINGS.filter((f) => typeof data[f] !== 'string');
  if (missing.length > 0) throw new MalformedEventError('message.inbound', `data.${missing.join(', data.')} must be strings`);
  for (const f of ['sent_at', 'received_at'] as const) {
    if (Number.isNaN(Date.parse(data[f]!))) throw new MalformedEventError('message.inbound', `data.${f} must be a timestamp`);
  }
  if (data.channel_agent != null && typeof data.channel_agent !== 'string') {
    throw new MalformedEventError('message.inbound', 'data.channel_agent must be a string or null');
  }
  return {
    tenantId: event.tenant_id,
    inbound: {
      ...(data as MessageInboundData),
      // PostgreSQL text and jsonb cannot hold NUL characters; a customer's text must not become a poison message.
      text: data.text!.replaceAll('\u0000', ''),
      channel_agent: data.channel_agent ?? null,
      contact_name: data.contact_name ?? null,
    },
  };
}
