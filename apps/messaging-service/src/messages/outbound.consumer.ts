import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Headers, Topics, campaignFromHeader, type MessageOutboundEvent } from '@parley/contracts';
import { KafkaBatchContext, PacedBatchByKey } from '@parley/kafka';
import { OutboundService } from './outbound.service';

/**
 * `message.outbound`: API sends and agent replies to deliver through the tenant's WhatsApp number, keyed by
 * conversation. A conversation's messages waiting in a partition come together (BatchByKey), in order, and go to the
 * intake insert together; the conversations of one fetched batch are taken side by side. Paced (`PacedBatchByKey`):
 * under steady load the consumer waits 20 ms between batches, so a batch carries more than one or two sends.
 */
@Controller()
export class OutboundConsumer {
  constructor(private readonly outbound: OutboundService) {}

  @EventPattern(Topics.MessageOutbound, PacedBatchByKey)
  handle(@Payload() events: MessageOutboundEvent[], @Ctx() ctx: KafkaBatchContext): Promise<void> {
    return this.outbound.sendMany(
      events.map((event, i) => ({
        tenantId: event.tenant_id ?? '',
        data: event.data,
        requestId: ctx.messages[i].requestId,
        // null when its producer predates the header: its statuses then carry none, and are read by all
        fromCampaign: campaignFromHeader(ctx.messages[i].headers[Headers.Campaign]),
      })),
    );
  }
}
