import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageInboundEvent } from '@parley/contracts';
import { KafkaContext } from '@parley/kafka';
import { parseInbound } from './inbound';
import { RepliesService } from './replies.service';

/** Each inbound customer message gets the agent's reply (or none) and its `message.received`. */
@Controller()
export class RepliesConsumer {
  constructor(private readonly replies: RepliesService) {}

  @EventPattern(Topics.MessageInbound)
  async onInbound(@Payload() event: MessageInboundEvent, @Ctx() ctx: KafkaContext): Promise<void> {
    const { tenantId, inbound } = parseInbound(event);
    await this.replies.handleInbound(tenantId, inbound, ctx.requestId);
  }
}
