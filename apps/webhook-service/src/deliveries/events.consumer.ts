import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageReceivedEvent, type MessageStatusEvent } from '@parley/contracts';
import { DeliveriesService } from './deliveries.service';

/** The public events tenants can subscribe to, as other services publish them. */
@Controller()
export class EventsConsumer {
  constructor(private readonly deliveries: DeliveriesService) {}

  @EventPattern(Topics.MessageReceived)
  async onMessageReceived(@Payload() event: MessageReceivedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.MessageStatus)
  async onMessageStatus(@Payload() event: MessageStatusEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }
}
