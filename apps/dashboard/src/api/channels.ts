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
    /** A text from one of the tenant's channels (`from` its number or address): the channels page's test. */
    sendOn: (channel: Exclude<ChannelKind, 'voice'>, body: { to: string; from: string; message: string; subject?: string }) => unwrap(api.POST('/v1/send', { body: { channel, ...body } })),
    message: (messageId: string) => unwrap(api.GET('/api/v1/messages/{message_id}', { params: { path: { message_id: messageId } } })),
  };
}
