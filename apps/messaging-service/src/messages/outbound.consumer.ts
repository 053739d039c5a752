import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageOutboundEvent } from '@parley/contracts';
import { KafkaContext } from '@parley/kafka';
import { OutboundService } from './outbound.service';

/** `message.outbound`: API sends and agent replies to deliver through the tenant's WhatsApp number. */
@Controller()
export class OutboundConsumer {
  constructor(private readonly outbound: OutboundService) {}

  @EventPattern(Topics.MessageOutbound)
  handle(@Payload() event: MessageOutboundEvent, @Ctx() ctx: KafkaContext): Promise<void> {
    return this.outbound.send(event.tenant_id ?? '', event.data, ctx.requestId);
  }
}
