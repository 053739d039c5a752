import { Module } from '@nestjs/common';
import { WebhookHttpClient } from '../egress/webhook-http-client';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { DeliveriesRpcController } from './deliveries.rpc.controller';
import { ContactErasure } from './contact-erasure';
import { DeliveriesService } from './deliveries.service';
import { DeliveriesStore } from './deliveries.store';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EventRetention } from './event-retention';
import { EventsConsumer } from './events.consumer';
import { SuccessRecorder } from './success-recorder';

@Module({
  imports: [EndpointsModule],
  controllers: [EventsConsumer, DeliveriesRpcController],
  providers: [ContactErasure, DeliveriesService, DeliveriesStore, DeliveryDispatcher, SuccessRecorder, EventRetention, WebhookHttpClient],
  exports: [DeliveriesService],
})
export class DeliveriesModule {}
