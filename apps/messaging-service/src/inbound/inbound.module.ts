import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessagesModule } from '../messages/messages.module';
import { MediaModule } from '../media/media.module';
import { SmsModule } from '../sms/sms.module';
import { TemplatesModule } from '../templates/templates.module';
import { MediaDownloadWorker } from './media-download.worker';
import { MediaDownloadsQueued } from './media-downloads-queued';
import { MediaDownloadsStore } from './media-downloads.store';
import { InboundMessagesService } from './inbound-messages.service';
import { InboundMessagesStore } from './inbound-messages.store';
import { WhatsappWebhookConsumer } from './whatsapp-webhook.consumer';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

@Module({
  imports: [ChannelsModule, MessagesModule, TemplatesModule, MediaModule, SmsModule],
  controllers: [WhatsappWebhookConsumer],
  providers: [WhatsappWebhookService, InboundMessagesService, InboundMessagesStore, MediaDownloadsStore, MediaDownloadsQueued, MediaDownloadWorker],
  exports: [InboundMessagesService],
})
export class InboundModule {}
