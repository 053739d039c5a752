import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  Topics,
  type ContactOptedInEvent,
  type ContactOptedOutEvent,
  type LeadCapturedEvent,
  type LeadUpdatedEvent,
  type MessageInboundEvent,
} from '@parley/contracts';
import { BatchByKey } from '@parley/kafka';
import { ActivitiesService } from '../activities/activities.service';
import { leadEntry } from '../activities/activity-entries';
import { LeadDealsService } from '../deals/lead-deals.service';
import { ContactIntakeService } from './contact-intake.service';

/** The events contacts are made and kept from. An event without a tenant or its record is logged and skipped. */
@Controller()
export class ContactsConsumer {
  private readonly logger = new Logger('ContactsConsumer');

  constructor(
    private readonly intake: ContactIntakeService,
    private readonly leadDeals: LeadDealsService,
    private readonly activities: ActivitiesService,
  ) {}

  /**
   * A customer's messages: a key's waiting messages come together, and join the other groups consumed side by side in
   * one transaction (contacts, their events and the timeline entries: a constant number of statements per batch).
   * Not gathered (`GatheredBatchByKey`): a message handled half a second late could remake a contact its tenant has
   * just deleted (the contacts e2e caught it).
   */
  @EventPattern(Topics.MessageInbound, BatchByKey)
  async onMessageInbound(@Payload() events: MessageInboundEvent[]): Promise<void> {
    const usable = events.filter((event) => this.usable(event, event.data?.from));
    await this.intake.fromInboundMessages(usable.map((event) => ({ tenantId: event.tenant_id!, message: event.data })));
  }

  @EventPattern(Topics.LeadCaptured)
  async onLeadCaptured(@Payload() event: LeadCapturedEvent): Promise<void> {
    if (!this.usable(event, event.data?.lead?.id)) return;
    await this.intake.fromLead(event.tenant_id!, event.data.lead);
    // after intake, which links the lead to its contact (one handler per topic: the deal is opened from here)
    await this.leadDeals.openForLead(event.tenant_id!, event.data.lead);
    const contactId = await this.activities.contactOfLead(event.tenant_id!, event.data.lead.id);
    if (contactId) await this.activities.record(event.tenant_id!, leadEntry(contactId, event.data.lead, event.data.at));
  }

  @EventPattern(Topics.LeadUpdated)
  async onLeadUpdated(@Payload() event: LeadUpdatedEvent): Promise<void> {
    if (this.usable(event, event.data?.lead?.id)) await this.intake.fromLead(event.tenant_id!, event.data.lead);
  }

  @EventPattern(Topics.ContactOptedOut)
  async onOptedOut(@Payload() event: ContactOptedOutEvent): Promise<void> {
    if (this.usable(event, event.data?.customer)) await this.intake.applyOptChange(event.tenant_id!, event.data);
  }

  @EventPattern(Topics.ContactOptedIn)
  async onOptedIn(@Payload() event: ContactOptedInEvent): Promise<void> {
    if (this.usable(event, event.data?.customer)) await this.intake.applyOptChange(event.tenant_id!, event.data);
  }

  private usable(event: { id?: string; type?: string; tenant_id: string | null }, required: unknown): boolean {
    if (typeof event.tenant_id === 'string' && event.tenant_id !== '' && typeof required === 'string' && required !== '') return true;
    this.logger.warn(`skipped ${event.type} ${event.id}: no tenant or no record`);
    return false;
  }
}
