import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ContactOptedInEvent, type ContactOptedOutEvent } from '@parley/contracts';
import { OptOutsService } from './opt-outs.service';

/** `contact.opted_out` / `contact.opted_in` from responder-service: kept here, where marketing sends are checked. */
@Controller()
export class OptOutsConsumer {
  constructor(private readonly optOuts: OptOutsService) {}

  @EventPattern(Topics.ContactOptedOut)
  onOptedOut(@Payload() event: ContactOptedOutEvent): Promise<void> {
    return this.optOuts.apply([event.data]);
  }

  @EventPattern(Topics.ContactOptedIn)
  onOptedIn(@Payload() event: ContactOptedInEvent): Promise<void> {
    return this.optOuts.apply([event.data]);
  }
}
