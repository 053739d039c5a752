import { Headers, type EventEnvelope } from './envelope';
import type { MessageOutboundData } from './messages';

/**
 * The routing facts of an envelope that consumers decide on before parsing it (issue 33: skip what is not yours,
 * unread), sent as Kafka headers: libs/kafka's publisher adds them to every envelope it publishes. A `message.outbound`
 * says whether it is a campaign's; messaging-service carries that on to the message's `message.status` records.
 */
export function routingHeaders(envelope: EventEnvelope): Record<string, string> {
  if (envelope.type === 'message.outbound') return { [Headers.Campaign]: (envelope.data as Partial<MessageOutboundData> | null)?.campaign_id ? 'yes' : 'no' };
  return {};
}
