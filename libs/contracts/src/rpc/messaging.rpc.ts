import type { ChannelKind, InboundMessageType, MessageError, OutboundStatus, WhatsappProvider } from '../events/messages';
import type { ListQuery, Page, TenantScoped } from './rpc';

/** A connected WhatsApp number (CONTRACT.md §6). Credentials are never part of it. */
export interface ChannelRecord {
  id: string;
  provider: WhatsappProvider;
  phone_number: string;
  phone_number_id: string;
  waba_id: string | null;
  status: 'connected' | 'disconnected';
  agent: string | null;
  is_default: boolean;
  created_at: string;
}

/** A message as `GET /api/v1/messages/{id}` answers it (CONTRACT.md §4). */
export interface MessageRecord {
  message_id: string;
  direction: 'outbound' | 'inbound';
  channel: ChannelKind;
  from: string;
  to: string;
  type: InboundMessageType | 'template';
  message: string;
  status: OutboundStatus | 'received' | 'accepted';
  status_history: { status: string; at: string }[];
  error?: MessageError;
  created_at: string;
}

export interface MessageListQuery extends ListQuery {
  direction?: 'outbound' | 'inbound';
  to?: string;
  from?: string;
  since?: string;
}

/** messaging-service's request-reply patterns. */
export interface MessagingRpc {
  /** Gives a new account its own sandbox number (CONTRACT.md §2). */
  'channels.provision-sandbox': { service: 'messaging'; request: TenantScoped; response: ChannelRecord };
  'channels.list': { service: 'messaging'; request: TenantScoped & ListQuery; response: Page<ChannelRecord> };
  /** Whether `phone_number` is one of the tenant's connected numbers (the `from` of a send): 404 when not. */
  'channels.resolve-sender': { service: 'messaging'; request: TenantScoped & { phone_number: string }; response: ChannelRecord };
  'messages.get': { service: 'messaging'; request: TenantScoped & { message_id: string }; response: MessageRecord };
  'messages.list': { service: 'messaging'; request: TenantScoped & MessageListQuery; response: Page<MessageRecord> };
}
