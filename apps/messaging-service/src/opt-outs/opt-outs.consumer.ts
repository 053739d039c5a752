import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ContactOptedInData, type ContactOptedInEvent, type ContactOptedOutData, type ContactOptedOutEvent } from '@parley/contracts';
import { OptOutsStore } from './opt-outs.store';

/** `contact.opted_out` / `contact.opted_in` from responder-service: kept here, where marketing sends are checked. */
@Controller()
export class OptOutsConsumer {
  constructor(private readonly optOuts: OptOutsStore) {}

  @EventPattern(Topics.ContactOptedOut)
  async onOptedOut(@Payload() event: ContactOptedOutEvent): Promise<void> {
    await this.route(event.data);
  }

  @EventPattern(Topics.ContactOptedIn)
  async onOptedIn(@Payload() event: ContactOptedInEvent): Promise<void> {
    await this.route(event.data);
  }

  /** An SMS keyword is that channel's opt-out (stored already where it was read; this is its redelivery-safe echo). */
  private async route(change: ContactOptedOutData | ContactOptedInData): Promise<void> {
    if (change.channel === 'sms') await this.optOuts.applyOnChannel(change.tenant_id, change);
    else await this.optOuts.apply([change]);
  }
}
