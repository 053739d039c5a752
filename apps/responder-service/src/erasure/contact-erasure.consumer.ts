import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ContactDeletedEvent } from '@parley/contracts';
import { ContactErasureStore } from './contact-erasure.store';

/** `contact.deleted` from crm-service: the contact's conversations, leads and appointments go from here too. */
@Controller()
export class ContactErasureConsumer {
  constructor(private readonly erasure: ContactErasureStore) {}

  @EventPattern(Topics.ContactDeleted)
  async onContactDeleted(@Payload() event: ContactDeletedEvent): Promise<void> {
    if (event.tenant_id && event.data?.tenant_id === event.tenant_id) await this.erasure.erase(event.data);
  }
}
