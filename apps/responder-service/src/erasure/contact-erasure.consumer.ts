import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { SettledAfterGathering } from '@parley/kafka';
import { Topics, type ContactDeletedEvent } from '@parley/contracts';
import { ContactErasureStore } from './contact-erasure.store';

/**
 * `contact.deleted` from crm-service: the contact's conversations, leads and appointments go from here too.
 * Run a second after the deletion (`SettledAfterGathering`): what named the contact and was already on its way
 * (consumers gather under load) has landed by then, and goes with the rest.
 */
@Controller()
export class ContactErasureConsumer {
  constructor(private readonly erasure: ContactErasureStore) {}

  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  async onContactDeleted(@Payload() event: ContactDeletedEvent): Promise<void> {
    if (event.tenant_id && event.data?.tenant_id === event.tenant_id) await this.erasure.erase(event.data);
  }
}
