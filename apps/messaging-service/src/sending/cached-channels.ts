import { Injectable } from '@nestjs/common';
import type { ChannelEntity } from '../channels/channel.entity';
import { ChannelsService, type SenderChoice, type SendingChannel } from '../channels/channels.service';
import { LookupCache } from '../common/lookup-cache';

/**
 * How long a looked-up channel is reused. A change made through this instance clears the cache at once; the TTL
 * bounds how long another instance's change (a disconnect, a new default, a new limit) takes to be seen here.
 */
export const CHANNEL_CACHE_TTL_MS = 5_000;

/**
 * The channel lookups of the hot paths (every send, every provider notification), cached: a channel rarely changes,
 * and without the cache each message paid a database round trip (and a credential decryption) for it. Answers are
 * shared objects: read them, never change them.
 */
@Injectable()
export class CachedChannels {
  private readonly forSend = new LookupCache<SendingChannel>(CHANNEL_CACHE_TTL_MS);
  private readonly byPhoneNumberId = new LookupCache<ChannelEntity>(CHANNEL_CACHE_TTL_MS);
  private readonly byId = new LookupCache<ChannelEntity>(CHANNEL_CACHE_TTL_MS);

  constructor(private readonly channels: ChannelsService) {
    channels.onChange(() => {
      this.forSend.clear();
      this.byPhoneNumberId.clear();
      this.byId.clear();
    });
  }

  /** See ChannelsService.findForSend. */
  findForSend(tenantId: string, choice: SenderChoice): Promise<SendingChannel | null> {
    const key = `${tenantId}\n${choice.kind ?? 'whatsapp'}\n${choice.channelId ?? ''}\n${choice.channelId ? '' : (choice.from ?? '')}`;
    return this.forSend.get(key, () => this.channels.findForSend(tenantId, choice));
  }

  /** See ChannelsService.findByPhoneNumberId. */
  findByPhoneNumberId(phoneNumberId: string): Promise<ChannelEntity | null> {
    return this.byPhoneNumberId.get(phoneNumberId, () => this.channels.findByPhoneNumberId(phoneNumberId));
  }

  /** See ChannelsService.findById. */
  findById(channelId: string): Promise<ChannelEntity | null> {
    return this.byId.get(channelId, () => this.channels.findById(channelId));
  }
}
