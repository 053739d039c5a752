import { Module } from '@nestjs/common';
import { WebhookHttpClient } from '../egress/webhook-http-client';
import { DeliveriesService } from './deliveries.service';
import { DeliveriesStore } from './deliveries.store';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EventRetention } from './event-retention';
import { EventsConsumer } from './events.consumer';

@Module({
  controllers: [EventsConsumer],
  providers: [DeliveriesService, DeliveriesStore, DeliveryDispatcher, EventRetention, WebhookHttpClient],
  exports: [DeliveriesService],
})
export class DeliveriesModule {}
