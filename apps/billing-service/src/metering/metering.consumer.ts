import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageOutboundEvent, type MessageStatusEvent, type TemplateStatusEvent } from '@parley/contracts';
import { MeteringService } from './metering.service';

/** What billing meters and charges from: accepted sends, their outcomes, and the templates that price them. */
@Controller()
export class MeteringConsumer {
  constructor(private readonly metering: MeteringService) {}

  @EventPattern(Topics.MessageOutbound)
  async onOutbound(@Payload() event: MessageOutboundEvent): Promise<void> {
    await this.metering.onOutbound(event);
  }

  @EventPattern(Topics.MessageStatus)
  async onStatus(@Payload() event: MessageStatusEvent): Promise<void> {
    await this.metering.onStatus(event);
  }

  @EventPattern(Topics.TemplateStatus)
  async onTemplateStatus(@Payload() event: TemplateStatusEvent): Promise<void> {
    await this.metering.onTemplateStatus(event);
  }
}
