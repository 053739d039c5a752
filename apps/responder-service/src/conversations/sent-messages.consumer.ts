import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type MessageOutboundEvent } from '@parley/contracts';
import { InboxService } from './inbox.service';

/** `message.outbound` from the API (gateway, campaigns): what was sent to a customer goes into their thread. */
@Controller()
export class SentMessagesConsumer {
  constructor(private readonly inbox: InboxService) {}

  @EventPattern(Topics.MessageOutbound)
  async onOutbound(@Payload() event: MessageOutboundEvent): Promise<void> {
    if (event.tenant_id && event.data?.to && event.data.content) await this.inbox.recordSend(event.tenant_id, event.data);
  }
}
