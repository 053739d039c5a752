import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MediaModule } from '../media/media.module';
import { EmailThreads } from '../email/email-threads';
import { OptOutsModule } from '../opt-outs/opt-outs.module';
import { ProvidersModule } from '../providers/providers.module';
import { CustomerWindowService } from './customer-window.service';
import { MessageStatusService } from './message-status.service';
import { MessagesRpcController } from './messages.rpc.controller';
import { MessagesService } from './messages.service';
import { OutboundConsumer } from './outbound.consumer';
import { OutboundService } from './outbound.service';
import { PendingStatusesService } from './pending-statuses.service';
import { CachedChannels } from '../sending/cached-channels';
import { SendAcceptance } from '../sending/send-acceptance.service';
import { SendDispatcher } from '../sending/send-dispatcher.service';
import { SendQueue } from '../sending/send-queue';
import { SendQueueWorker } from '../sending/send-queue.worker';
import { SendRateLimiter } from '../sending/send-rate-limiter';

@Module({
  imports: [ChannelsModule, ProvidersModule, MediaModule, OptOutsModule],
  controllers: [MessagesRpcController, OutboundConsumer],
  providers: [
    MessagesService,
    OutboundService,
    MessageStatusService,
    PendingStatusesService,
    CustomerWindowService,
    SendQueue,
    SendAcceptance,
    SendDispatcher,
    SendRateLimiter,
    SendQueueWorker,
    CachedChannels,
    EmailThreads,
  ],
  exports: [MessageStatusService, PendingStatusesService, SendAcceptance, CustomerWindowService, CachedChannels],
})
export class MessagesModule {}
