import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessagesModule } from '../messages/messages.module';
import { TemplatesModule } from '../templates/templates.module';
import { InboundMessagesService } from './inbound-messages.service';
import { WhatsappWebhookConsumer } from './whatsapp-webhook.consumer';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

@Module({
  imports: [ChannelsModule, MessagesModule, TemplatesModule],
  controllers: [WhatsappWebhookConsumer],
  providers: [WhatsappWebhookService, InboundMessagesService],
  exports: [InboundMessagesService],
})
export class InboundModule {}
