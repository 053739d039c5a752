import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessagesModule } from '../messages/messages.module';
import { MediaModule } from '../media/media.module';
import { SmsModule } from '../sms/sms.module';
import { TemplatesModule } from '../templates/templates.module';
import { MediaDownloadWorker } from './media-download.worker';
import { MediaDownloadLoop, MediaDownloads } from './media-downloads';
import { InboundMessagesService } from './inbound-messages.service';
import { WhatsappWebhookConsumer } from './whatsapp-webhook.consumer';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

@Module({
  imports: [ChannelsModule, MessagesModule, TemplatesModule, MediaModule, SmsModule],
  controllers: [WhatsappWebhookConsumer],
  providers: [WhatsappWebhookService, InboundMessagesService, MediaDownloads, MediaDownloadLoop, MediaDownloadWorker],
  exports: [InboundMessagesService],
})
export class InboundModule {}
