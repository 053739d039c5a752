import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  Topics,
  type AppointmentBookedEvent,
  type AppointmentCancelledEvent,
  type AppointmentRescheduledEvent,
  type DealCreatedEvent,
  type DealStageChangedEvent,
  type MessageOutboundEvent,
} from '@parley/contracts';
import { BrieflyGatheredBatchByKey } from '@parley/kafka';
import { ActivitiesService } from './activities.service';
import { appointmentEntry, dealEntry, outboundMessageEntry } from './activity-entries';

/**
 * The events that only add to timelines. Inbound messages and captured leads are recorded by `ContactsConsumer`, which
 * owns those topics here (one handler per topic and service).
 */
@Controller()
export class ActivitiesConsumer {
  private readonly logger = new Logger('ActivitiesConsumer');

  constructor(private readonly activities: ActivitiesService) {}

  /**
   * Every message to a customer: the agent's replies, API and inbox sends, campaign messages. A key's waiting messages
   * come together and join the other groups' in one insert (the busiest topic here: one statement per consumed batch).
   * Gathered briefly (`BrieflyGatheredBatchByKey`), not for half a second as counters are: an entry that lands after its
   * contact's erasure is erased again by TimelineErasureConsumer, a second after the deletion.
   */
  @EventPattern(Topics.MessageOutbound, BrieflyGatheredBatchByKey)
  async onMessageOutbound(@Payload() events: MessageOutboundEvent[]): Promise<void> {
    const usable = events.filter((event) => this.usable(event, event.data?.to));
    await this.activities.recordMany(usable.map((event) => ({ tenantId: event.tenant_id!, entry: outboundMessageEntry(event.data) })));
  }

  @EventPattern(Topics.AppointmentBooked)
  onAppointmentBooked(@Payload() event: AppointmentBookedEvent): Promise<void> {
    return this.onAppointment(event);
  }

  @EventPattern(Topics.AppointmentRescheduled)
  onAppointmentRescheduled(@Payload() event: AppointmentRescheduledEvent): Promise<void> {
    return this.onAppointment(event);
  }

  @EventPattern(Topics.AppointmentCancelled)
  onAppointmentCancelled(@Payload() event: AppointmentCancelledEvent): Promise<void> {
    return this.onAppointment(event);
  }

  @EventPattern(Topics.DealCreated)
  async onDealCreated(@Payload() event: DealCreatedEvent): Promise<void> {
    if (this.usable(event, event.data?.deal?.contact_id)) await this.activities.record(event.tenant_id!, dealEntry(event.id, event.data));
  }

  @EventPattern(Topics.DealStageChanged)
  async onDealStageChanged(@Payload() event: DealStageChangedEvent): Promise<void> {
    if (this.usable(event, event.data?.deal?.contact_id)) await this.activities.record(event.tenant_id!, dealEntry(event.id, event.data));
  }

  private async onAppointment(event: AppointmentBookedEvent | AppointmentRescheduledEvent | AppointmentCancelledEvent): Promise<void> {
    if (this.usable(event, event.data?.appointment?.customer)) await this.activities.record(event.tenant_id!, appointmentEntry(event.id, event.data));
  }

  private usable(event: { id?: string; type?: string; tenant_id: string | null }, required: unknown): boolean {
    if (typeof event.tenant_id === 'string' && event.tenant_id !== '' && typeof required === 'string' && required !== '') return true;
    this.logger.warn(`skipped ${event.type} ${event.id}: no tenant or no record`);
    return false;
  }
}
