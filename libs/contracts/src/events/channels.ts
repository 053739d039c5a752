import type { ChannelRecord } from '../rpc/messaging.rpc';
import type { EventEnvelope } from './envelope';

/**
 * `channel.changed`: a tenant's WhatsApp channel after a change (connected, updated), or `channel: null` once it was
 * disconnected. Lets other services keep what they know of a tenant's numbers (e.g. the gateway's check of a send's
 * `from`) without asking messaging-service each time.
 */
export interface ChannelChangedData {
  tenant_id: string;
  /** The channel this change is about (also on disconnection). */
  channel_id: string;
  /** The channel's number (E.164), also on disconnection. */
  phone_number: string;
  channel: ChannelRecord | null;
}

export type ChannelChangedEvent = EventEnvelope<'channel.changed', ChannelChangedData>;
