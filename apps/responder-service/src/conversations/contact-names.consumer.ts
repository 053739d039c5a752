import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ContactCreatedEvent, type ContactRecord, type ContactUpdatedEvent } from '@parley/contracts';
import { ContactNamesStore } from './contact-names.store';

/**
 * `contact.created` and `contact.updated` from crm-service (issue 32): a name the team edits on the contact, or that
 * a lead or an import gave it, is the name the inbox shows and searches. The dashboard reads the list again after
 * `contact.updated` (no inbox event says this changed: `conversation.updated`'s kinds are fixed per version).
 */
@Controller()
export class ContactNamesConsumer {
  constructor(private readonly names: ContactNamesStore) {}

  @EventPattern(Topics.ContactCreated)
  async onCreated(@Payload() event: ContactCreatedEvent): Promise<void> {
    await this.keep(event.tenant_id, event.data?.tenant_id, event.data?.contact, event.data?.at);
  }

  @EventPattern(Topics.ContactUpdated)
  async onUpdated(@Payload() event: ContactUpdatedEvent): Promise<void> {
    await this.keep(event.tenant_id, event.data?.tenant_id, event.data?.contact, event.data?.at);
  }

  private async keep(tenantId: string | null | undefined, dataTenant: string | undefined, contact: ContactRecord | undefined, at: string | undefined): Promise<void> {
    if (!tenantId || dataTenant !== tenantId || !contact || !at || Number.isNaN(Date.parse(at))) return;
    const customers = [contact.phone, contact.email].filter((a): a is string => typeof a === 'string' && a !== '');
    if (customers.length === 0) return;
    await this.names.keep(tenantId, customers, contact.name?.trim() || null, new Date(at), Array.isArray(contact.tags) ? contact.tags : []);
  }
}
