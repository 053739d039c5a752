import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageInboundEvent, type MessageStatusEvent } from '@parley/contracts';
import { CampaignResultsService } from './campaign-results.service';

/** Outcomes of campaign messages. An event without a tenant or its message is logged and skipped. */
@Controller()
export class CampaignResultsConsumer {
  private readonly logger = new Logger(CampaignResultsConsumer.name);

  constructor(private readonly results: CampaignResultsService) {}

  @EventPattern(Topics.MessageStatus)
  async onStatus(@Payload() event: MessageStatusEvent): Promise<void> {
    if (this.usable(event, event.data?.message_id)) await this.results.applyStatus(event.tenant_id!, event.data);
  }

  @EventPattern(Topics.MessageInbound)
  async onInbound(@Payload() event: MessageInboundEvent): Promise<void> {
    if (this.usable(event, event.data?.from) && typeof event.data.sent_at === 'string') await this.results.applyInbound(event.tenant_id!, event.data);
  }

  private usable(event: { id?: string; type?: string; tenant_id: string | null }, required: unknown): boolean {
    if (typeof event.tenant_id === 'string' && event.tenant_id !== '' && typeof required === 'string' && required !== '') return true;
    this.logger.warn(`skipped ${event.type} ${event.id}: no tenant or no message`);
    return false;
  }
}
