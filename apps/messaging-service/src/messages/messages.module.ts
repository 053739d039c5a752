import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MediaModule } from '../media/media.module';
import { EmailStore } from '../email/email.store';
import { EmailThreads } from '../email/email-threads';
import { OptOutsModule } from '../opt-outs/opt-outs.module';
import { ProvidersModule } from '../providers/providers.module';
import { CustomerWindowService } from './customer-window.service';
import { CustomerWindowsStore } from './customer-windows.store';
import { MessageStatusService } from './message-status.service';
import { MessageStatusStore } from './message-status.store';
import { MessagesRpcController } from './messages.rpc.controller';
import { MessagesService } from './messages.service';
import { MessagesStore } from './messages.store';
import { OutboundConsumer } from './outbound.consumer';
import { OutboundService } from './outbound.service';
import { OutboundStore } from './outbound.store';
import { ParkedStatusExpiry } from './parked-status-expiry';
import { PendingStatusesService } from './pending-statuses.service';
import { PendingStatusesStore } from './pending-statuses.store';
import { CachedChannels } from '../sending/cached-channels';
import { SendAcceptance } from '../sending/send-acceptance.service';
import { SendAcceptanceStore } from '../sending/send-acceptance.store';
import { SendDispatcher } from '../sending/send-dispatcher.service';
import { SendQueueStore } from '../sending/send-queue.store';
import { SendQueueWorker } from '../sending/send-queue.worker';
import { SendRateLimiter } from '../sending/send-rate-limiter';
import { StatusReportsRead } from '../sending/status-reports-read';

@Module({
  imports: [ChannelsModule, ProvidersModule, MediaModule, OptOutsModule],
  controllers: [MessagesRpcController, OutboundConsumer],
  providers: [
    MessagesService,
    MessagesStore,
    OutboundService,
    OutboundStore,
    MessageStatusService,
    MessageStatusStore,
    PendingStatusesService,
    ParkedStatusExpiry,
    PendingStatusesStore,
    CustomerWindowService,
    CustomerWindowsStore,
    SendQueueStore,
    SendAcceptance,
    SendAcceptanceStore,
    SendDispatcher,
    SendRateLimiter,
    StatusReportsRead,
    SendQueueWorker,
    CachedChannels,
    EmailThreads,
    EmailStore,
  ],
  exports: [MessageStatusService, PendingStatusesService, SendAcceptance, CustomerWindowService, CachedChannels],
})
export class MessagesModule {}
