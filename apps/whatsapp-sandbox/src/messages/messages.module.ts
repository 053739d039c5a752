import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { NumbersModule } from '../numbers/numbers.module';
import { CloudMessagesController } from './cloud-messages.controller';
import { InboundService } from './inbound.service';
import { MessagesService } from './messages.service';
import { SandboxMessagesController } from './sandbox-messages.controller';

@Module({
  imports: [NumbersModule, NotificationsModule],
  controllers: [CloudMessagesController, SandboxMessagesController],
  providers: [MessagesService, InboundService],
})
export class MessagesModule {}
