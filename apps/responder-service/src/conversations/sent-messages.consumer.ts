import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Headers, Topics, type MessageOutboundEvent } from '@parley/contracts';
import { BrieflyGatheredBatchByKey } from '@parley/kafka';
import { GroupCommit } from '@parley/service-kit';
import { ConversationsStore } from './conversations.store';
import { InboxService } from './inbox.service';

/**
 * `message.outbound` from the API (gateway, campaigns): what was sent to a customer goes into their thread. Most API
 * sends go to customers with no conversation here (notifications, campaigns): one statement per consumed batch finds
 * the customers that have one, and only their sends go on to InboxService.recordSend. Briefly gathered: the inbox shows
 * an API send at most a tenth of a second later under load, and a send to an erased customer finds no conversation.
 * The agents' own replies (this service wrote them into the thread already) are skipped unread by their origin header.
 */
@Controller()
export class SentMessagesConsumer {
  /** The key groups consumed side by side share one look-up (group commit). */
  private readonly lookups = new GroupCommit<{ tenantId: string; customer: string }, boolean>((pairs) => this.conversations.haveConversations(pairs));

  constructor(
    private readonly inbox: InboxService,
    private readonly conversations: ConversationsStore,
  ) {}

  @EventPattern(Topics.MessageOutbound, { ...BrieflyGatheredBatchByKey, skipUnreadWhen: { [Headers.Origin]: 'agent' } })
  async onOutbound(@Payload() events: MessageOutboundEvent[]): Promise<void> {
    const sends = events.filter((event) => event.tenant_id && event.data?.to && event.data.content && event.data.origin === 'api');
    const known = await Promise.all(sends.map((event) => this.lookups.add({ tenantId: event.tenant_id!, customer: event.data.to })));
    for (const [i, event] of sends.entries()) if (known[i]) await this.inbox.recordSend(event.tenant_id!, event.data);
  }
}
