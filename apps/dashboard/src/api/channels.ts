import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// The channels beside WhatsApp (CONTRACT.md §17): an SMS number, an email address, a voice number.

type Schemas = components['schemas'];
export type ChannelKind = Schemas['Channel']['channel'];
export type ConnectSmsBody = Omit<Schemas['ConnectSmsChannelBody'], 'tenant_id'>;
export type ConnectEmailBody = Omit<Schemas['ConnectEmailChannelBody'], 'tenant_id'>;
export type ConnectVoiceBody = Omit<Schemas['ConnectVoiceChannelBody'], 'tenant_id'>;

export function createChannelsApi(api: ParleyClient) {
  return {
    connectSms: (body: ConnectSmsBody) => unwrap(api.POST('/api/v1/channels/sms', { body })),
    connectEmail: (body: ConnectEmailBody) => unwrap(api.POST('/api/v1/channels/email', { body })),
    connectVoice: (body: ConnectVoiceBody) => unwrap(api.POST('/api/v1/channels/voice', { body })),
  };
}
