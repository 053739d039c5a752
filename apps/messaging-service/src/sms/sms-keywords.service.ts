import { Injectable, Logger } from '@nestjs/common';
import { Topics, conversationKey, derivedId, type ContactOptedInData, type ContactOptedOutData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import type { ChannelEntity } from '../channels/channel.entity';
import type { NormalisedInbound } from '../inbound/normalise';
import { OptOutsStore } from '../opt-outs/opt-outs.store';
import { ProviderRegistry } from '../providers/provider-registry';
import { CachedChannels } from '../sending/cached-channels';
import { SMS_KEYWORD_REPLIES, type SmsKeyword } from './sms-keywords';

/**
 * Carrier keywords on an SMS number (CONTRACT.md §17): STOP opts the number out of the tenant's SMS (every later send
 * to it fails with `opted_out`), START opts it back in, HELP is answered. They are the carrier's business, not a
 * conversation: the agent never sees them. Each change is announced as `contact.opted_out`/`contact.opted_in` with
 * `channel: "sms"` (CRM, tenant webhooks). Every step is idempotent, so a redelivered webhook is harmless.
 */
@Injectable()
export class SmsKeywordsService {
  private readonly logger = new Logger(SmsKeywordsService.name);

  constructor(
    private readonly optOuts: OptOutsStore,
    private readonly publisher: EventPublisher,
    private readonly channels: CachedChannels,
    private readonly providers: ProviderRegistry,
  ) {}

  async handle(channel: ChannelEntity, inbound: NormalisedInbound, keyword: SmsKeyword, receivedAt: string, requestId?: string): Promise<void> {
    let changed = true;
    if (keyword.kind !== 'help') {
      const change = optChange(channel, inbound, keyword, receivedAt);
      changed = await this.optOuts.applyOnChannel(channel.tenantId, change.data);
      const id = derivedId('evt', change.data.event, change.data.message_id);
      await this.publisher.publishEvent(EventPublisher.envelope(change.topic, channel.tenantId, change.data, id), conversationKey(channel.tenantId, inbound.from), requestId);
    }
    // Twilio answers the keywords of its numbers itself (and would refuse our send after a STOP): only ours confirm.
    if (changed && channel.provider !== 'twilio') await this.confirm(channel, inbound.from, keyword);
  }

  private async confirm(channel: ChannelEntity, to: string, keyword: SmsKeyword): Promise<void> {
    const sending = await this.channels.findForSend(channel.tenantId, { channelId: channel.id, from: null, kind: 'sms' });
    if (!sending) return;
    try {
      await this.providers.adapterFor('sms', sending.sender.provider).send(sending.sender, to, { type: 'text', text: SMS_KEYWORD_REPLIES[keyword.kind] });
    } catch (err) {
      // The opt-out holds whether or not its confirmation got out; a retry must not repeat the change's effects.
      this.logger.warn(`could not confirm ${keyword.keyword} to ${to} on channel ${channel.id}: ${(err as Error).message}`);
    }
  }
}

function optChange(channel: ChannelEntity, inbound: NormalisedInbound, keyword: SmsKeyword, receivedAt: string) {
  const common = {
    tenant_id: channel.tenantId,
    channel: 'sms' as const,
    customer: inbound.from,
    // The keyword message is not stored as a conversation message; its id still names it, stably per provider sid.
    message_id: derivedId('msg', 'sms-keyword', channel.id, inbound.providerMessageId),
    keyword: keyword.keyword,
    at: receivedAt,
  };
  if (keyword.kind === 'stop') {
    const data: ContactOptedOutData = { event: 'contact.opted_out', ...common };
    return { topic: Topics.ContactOptedOut, data };
  }
  const data: ContactOptedInData = { event: 'contact.opted_in', ...common };
  return { topic: Topics.ContactOptedIn, data };
}
