import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Headers, Topics, type MessageInboundEvent, type MessageStatusEvent } from '@parley/contracts';
import { GatheredBatchByKey } from '@parley/kafka';
import { CampaignResultsService } from './campaign-results.service';

/** Outcomes of campaign messages. An event without a tenant or its message is logged and skipped. */
@Controller()
export class CampaignResultsConsumer {
  private readonly logger = new Logger(CampaignResultsConsumer.name);

  constructor(private readonly results: CampaignResultsService) {}

  /**
   * Every outbound message's statuses pass here, few of them a campaign's: a key's waiting statuses come together, and
   * the groups consumed side by side are picked out and applied together (CampaignResultsService.applyStatuses).
   * Counters nobody waits on to the millisecond: gathered for up to 500 ms (one statement per gathered batch). The
   * statuses of messages that say they are no campaign's (the `campaign` header) are skipped unread.
   */
  @EventPattern(Topics.MessageStatus, { ...GatheredBatchByKey, skipUnreadWhen: { [Headers.Campaign]: 'no' } })
  async onStatus(@Payload() events: MessageStatusEvent[]): Promise<void> {
    const usable = events.filter((event) => this.usable(event, event.data?.message_id));
    await this.results.applyStatuses(usable.map((event) => ({ tenantId: event.tenant_id!, status: event.data })));
  }

  /** Every inbound message passes here, to count the replies to campaign messages: gathered, as the statuses are. */
  @EventPattern(Topics.MessageInbound, GatheredBatchByKey)
  async onInbound(@Payload() events: MessageInboundEvent[]): Promise<void> {
    const usable = events.filter((event) => this.usable(event, event.data?.from) && typeof event.data.sent_at === 'string');
    const byTenant = new Map<string, MessageInboundEvent['data'][]>();
    for (const event of usable) byTenant.set(event.tenant_id!, [...(byTenant.get(event.tenant_id!) ?? []), event.data]);
    await Promise.all([...byTenant].map(([tenantId, messages]) => this.results.applyInbound(tenantId, messages)));
  }

  private usable(event: { id?: string; type?: string; tenant_id: string | null }, required: unknown): boolean {
    if (typeof event.tenant_id === 'string' && event.tenant_id !== '' && typeof required === 'string' && required !== '') return true;
    this.logger.warn(`skipped ${event.type} ${event.id}: no tenant or no message`);
    return false;
  }
}
