import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type WhatsappWebhookEvent } from '@parley/contracts';
import { KafkaContext } from '@parley/kafka';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

/** `whatsapp.webhook`: provider notifications as the gateway received them (signature already checked). */
@Controller()
export class WhatsappWebhookConsumer {
  constructor(private readonly webhooks: WhatsappWebhookService) {}

  @EventPattern(Topics.WhatsappWebhook)
  handle(@Payload() event: WhatsappWebhookEvent, @Ctx() ctx: KafkaContext): Promise<void> {
    return this.webhooks.process(event.data, ctx.requestId);
  }
}
