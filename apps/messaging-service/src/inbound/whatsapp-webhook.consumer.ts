import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type WhatsappWebhookEvent } from '@parley/contracts';
import { KafkaBatchContext, PacedBatchByKey } from '@parley/kafka';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

/**
 * `whatsapp.webhook`: provider notifications as the gateway received them (signature already checked), keyed by
 * business number. The notifications of one number waiting in a partition come together (BatchByKey) and are
 * written together: a flood of status callbacks costs a few statements per batch instead of several per status.
 * Paced (`PacedBatchByKey`): under steady load the consumer waits 20 ms between batches, so that flood gathers.
 */
@Controller()
export class WhatsappWebhookConsumer {
  constructor(private readonly webhooks: WhatsappWebhookService) {}

  @EventPattern(Topics.WhatsappWebhook, PacedBatchByKey)
  handle(@Payload() events: WhatsappWebhookEvent[], @Ctx() ctx: KafkaBatchContext): Promise<void> {
    return this.webhooks.processMany(events.map((event, i) => ({ data: event.data, requestId: ctx.messages[i].requestId })));
  }
}
