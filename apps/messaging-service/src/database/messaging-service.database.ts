import type { ServiceDatabase } from '@parley/service-kit';
import { ChannelEntity } from '../channels/channel.entity';
import { MediaEntity } from '../media/media.entity';
import { MessageEntity } from '../messages/message.entity';
import { CreateChannelsAndMessages1763856000000 } from './migrations/1763856000000-CreateChannelsAndMessages';
import { ChannelSettingsAndSendQueue1764115200000 } from './migrations/1764115200000-ChannelSettingsAndSendQueue';
import { PendingStatusesAndSendAttempts1764288000000 } from './migrations/1764288000000-PendingStatusesAndSendAttempts';
import { OutboundSendingNumber1764374400000 } from './migrations/1764374400000-OutboundSendingNumber';
import { OptOutsAndTemplates1764547200000 } from './migrations/1764547200000-OptOutsAndTemplates';
import { CreateMedia1764806400000 } from './migrations/1764806400000-CreateMedia';
import { MediaDownloads1764979200000 } from './migrations/1764979200000-MediaDownloads';
import { RichMessagesAndProviderMedia1764892800000 } from './migrations/1764892800000-RichMessagesAndProviderMedia';
import { SendQueueNotify1764633600000 } from './migrations/1764633600000-SendQueueNotify';
import { SmsAndEmailChannels1764720000000 } from './migrations/1764720000000-SmsAndEmailChannels';
import { ChannelOptOuts1765070000000 } from './migrations/1765070000000-ChannelOptOuts';
import { EmailAttachmentsAndAuthentication1765170000000 } from './migrations/1765170000000-EmailAttachmentsAndAuthentication';
import { MessagesFromCampaign1765180000000 } from './migrations/1765180000000-MessagesFromCampaign';
import { VoiceChannels1765160000000 } from './migrations/1765160000000-VoiceChannels';

export const messagingServiceDatabase: ServiceDatabase = {
  schema: 'messaging',
  entities: [ChannelEntity, MessageEntity, MediaEntity],
  migrations: [CreateChannelsAndMessages1763856000000, ChannelSettingsAndSendQueue1764115200000, PendingStatusesAndSendAttempts1764288000000, OutboundSendingNumber1764374400000, OptOutsAndTemplates1764547200000, SendQueueNotify1764633600000, SmsAndEmailChannels1764720000000, CreateMedia1764806400000, RichMessagesAndProviderMedia1764892800000, MediaDownloads1764979200000, ChannelOptOuts1765070000000, VoiceChannels1765160000000, EmailAttachmentsAndAuthentication1765170000000, MessagesFromCampaign1765180000000],
};
