import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { SettledAfterGathering } from '@parley/kafka';
import { Topics, type ContactDeletedData, type ContactDeletedEvent } from '@parley/contracts';
import { ContactErasureStore } from './contact-erasure.store';

/** The customer's addresses a deleted contact had: its number and its email (either may be null). */
export const erasedAddresses = (data: ContactDeletedData): string[] => [data.phone, data.email].filter((a): a is string => typeof a === 'string' && a !== '');

/**
 * `contact.deleted` from crm-service: the contact's personal data goes from this service too.
 * Run a second after the deletion (`SettledAfterGathering`): what named the contact and was already on its way
 * (consumers gather under load) has landed by then, and goes with the rest.
 */
@Controller()
export class ContactErasureConsumer {
  constructor(private readonly erasure: ContactErasureStore) {}

  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  async onContactDeleted(@Payload() event: ContactDeletedEvent): Promise<void> {
    if (!event.tenant_id || event.data?.tenant_id !== event.tenant_id) return;
    const addresses = erasedAddresses(event.data);
    if (addresses.length > 0) await this.erasure.erase(event.tenant_id, addresses);
  }
}
