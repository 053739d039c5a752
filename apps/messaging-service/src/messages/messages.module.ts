import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { ProvidersModule } from '../providers/providers.module';
import { MessageStatusService } from './message-status.service';
import { MessagesRpcController } from './messages.rpc.controller';
import { MessagesService } from './messages.service';
import { OutboundConsumer } from './outbound.consumer';
import { OutboundService } from './outbound.service';

@Module({
  imports: [ChannelsModule, ProvidersModule],
  controllers: [MessagesRpcController, OutboundConsumer],
  providers: [MessagesService, OutboundService, MessageStatusService],
  exports: [MessageStatusService],
})
export class MessagesModule {}
