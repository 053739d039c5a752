import { Headers, type EventEnvelope } from './envelope';
import type { MessageOutboundData } from './messages';

/**
 * The routing facts of an envelope that consumers decide on before parsing it (issue 33: skip what is not yours,
 * unread), sent as Kafka headers: libs/kafka's publisher adds them to every envelope it publishes. A `message.outbound`
 * says whether it is a campaign's (messaging-service carries that on to the message's `message.status` records) and
 * its origin (an API send or an agent's reply).
 */
export function routingHeaders(envelope: EventEnvelope): Record<string, string> {
  if (envelope.type !== 'message.outbound') return {};
  const data = envelope.data as Partial<MessageOutboundData> | null;
  return { [Headers.Campaign]: data?.campaign_id ? 'yes' : 'no', ...(typeof data?.origin === 'string' ? { [Headers.Origin]: data.origin } : {}) };
}

/**
 * The `campaign` header read back: true or false as its producer said, null when the record has none (its producer
 * predates the header, so whether it is a campaign's is unknown; readers then read it rather than skip it).
 */
export function campaignFromHeader(header: string | undefined): boolean | null {
  return header === 'yes' ? true : header === 'no' ? false : null;
}

/** The `campaign` header for a fact kept from `campaignFromHeader`: none when it is unknown, so every reader reads it. */
export function campaignHeader(fromCampaign: boolean | null | undefined): 'yes' | 'no' | undefined {
  return fromCampaign === null || fromCampaign === undefined ? undefined : fromCampaign ? 'yes' : 'no';
}
