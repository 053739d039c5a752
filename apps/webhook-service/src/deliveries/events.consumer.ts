import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  Topics,
  type AppointmentBookedEvent,
  type AppointmentCancelledEvent,
  type AppointmentRescheduledEvent,
  type AgentGapOpenedEvent,
  type AgentTestsCompletedEvent,
  type ConversationRatedEvent,
  type ConversationSlaBreachedEvent,
  type CampaignCompletedEvent,
  type ContactCreatedEvent,
  type ContactDeletedEvent,
  type ContactOptedInEvent,
  type ContactOptedOutEvent,
  type ContactUpdatedEvent,
  type ConversationHandoffEvent,
  type DealCreatedEvent,
  type DealStageChangedEvent,
  type LeadCapturedEvent,
  type LeadUpdatedEvent,
  type MessageReceivedEvent,
  type MessageStatusEvent,
  type TemplateStatusEvent,
  type WalletLowBalanceEvent,
} from '@parley/contracts';
import { BrieflyGatheredBatchByKey, SettledAfterGathering } from '@parley/kafka';
import { ContactErasure, eraseFromAnnouncement } from './contact-erasure';
import { DeliveriesService } from './deliveries.service';

/** The public events tenants can subscribe to, as other services publish them. */
@Controller()
export class EventsConsumer {
  constructor(
    private readonly deliveries: DeliveriesService,
    private readonly erasure: ContactErasure,
  ) {}

  @EventPattern(Topics.MessageReceived)
  async onMessageReceived(@Payload() event: MessageReceivedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  /**
   * Three for every message sent: briefly gathered, and a key's statuses handed over together, so under load one fetch
   * and one ingest statement (the adds of one turn share a group commit) carry many, in order within a key. A status
   * naming a customer whose erasure is under way lands before the erasure runs (`onContactDeleted` settles first).
   */
  @EventPattern(Topics.MessageStatus, BrieflyGatheredBatchByKey)
  async onMessageStatuses(@Payload() events: MessageStatusEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.deliveries.ingest(event)));
  }

  @EventPattern(Topics.LeadCaptured)
  async onLeadCaptured(@Payload() event: LeadCapturedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.LeadUpdated)
  async onLeadUpdated(@Payload() event: LeadUpdatedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.AppointmentBooked)
  async onAppointmentBooked(@Payload() event: AppointmentBookedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.AppointmentRescheduled)
  async onAppointmentRescheduled(@Payload() event: AppointmentRescheduledEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.AppointmentCancelled)
  async onAppointmentCancelled(@Payload() event: AppointmentCancelledEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ConversationHandoff)
  async onConversationHandoff(@Payload() event: ConversationHandoffEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ContactOptedOut)
  async onContactOptedOut(@Payload() event: ContactOptedOutEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ContactOptedIn)
  async onContactOptedIn(@Payload() event: ContactOptedInEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.TemplateStatus)
  async onTemplateStatus(@Payload() event: TemplateStatusEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.WalletLowBalance)
  async onWalletLowBalance(@Payload() event: WalletLowBalanceEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ContactCreated)
  async onContactCreated(@Payload() event: ContactCreatedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ContactUpdated)
  async onContactUpdated(@Payload() event: ContactUpdatedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  /**
   * Erases what the kept events say about the contact, then announces its deletion without its number and email. Run a
   * second after the deletion (`SettledAfterGathering`), once the events naming the contact that were already on their
   * way (statuses are gathered briefly) are kept, so the erasure takes them too.
   */
  @EventPattern(Topics.ContactDeleted, SettledAfterGathering)
  async onContactDeleted(@Payload() event: ContactDeletedEvent): Promise<void> {
    if (event.tenant_id && event.data?.tenant_id === event.tenant_id) await this.erasure.erase(event.data);
    await this.deliveries.ingest(event.data ? { ...event, data: eraseFromAnnouncement(event.data) } : event);
  }

  @EventPattern(Topics.DealCreated)
  async onDealCreated(@Payload() event: DealCreatedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.DealStageChanged)
  async onDealStageChanged(@Payload() event: DealStageChangedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.CampaignCompleted)
  async onCampaignCompleted(@Payload() event: CampaignCompletedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.AgentGapOpened)
  async onAgentGapOpened(@Payload() event: AgentGapOpenedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.AgentTestsCompleted)
  async onAgentTestsCompleted(@Payload() event: AgentTestsCompletedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ConversationSlaBreached)
  async onConversationSlaBreached(@Payload() event: ConversationSlaBreachedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }

  @EventPattern(Topics.ConversationRated)
  async onConversationRated(@Payload() event: ConversationRatedEvent): Promise<void> {
    await this.deliveries.ingest(event);
  }
}
