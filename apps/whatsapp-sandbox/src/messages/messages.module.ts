import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { NumbersModule } from '../numbers/numbers.module';
import { CloudMessagesController } from './cloud-messages.controller';
import { InboundService } from './inbound.service';
import { MessagesService } from './messages.service';
import { MessagesStore } from './messages.store';
import { SandboxMessagesController } from './sandbox-messages.controller';

@Module({
  imports: [NumbersModule, NotificationsModule, MediaModule],
  controllers: [CloudMessagesController, SandboxMessagesController],
  providers: [MessagesService, MessagesStore, InboundService],
})
export class MessagesModule {}
