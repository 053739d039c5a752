import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageInboundEvent } from '@parley/contracts';
import { BatchByKey, KafkaBatchContext } from '@parley/kafka';
import { parseInbound } from './inbound';
import { RepliesService } from './replies.service';

/**
 * Each inbound customer message gets its `message.received` and the agent's reply (or none). Messages of one customer
 * that arrived while the previous reply was being computed come together (BatchByKey) and get one reply.
 */
@Controller()
export class RepliesConsumer {
  constructor(private readonly replies: RepliesService) {}

  @EventPattern(Topics.MessageInbound, BatchByKey)
  async onInbound(@Payload() events: MessageInboundEvent[], @Ctx() ctx: KafkaBatchContext): Promise<void> {
    await this.replies.handleInbound(events.map((event, i) => ({ ...parseInbound(event), requestId: ctx.messages[i].requestId })));
  }
}
