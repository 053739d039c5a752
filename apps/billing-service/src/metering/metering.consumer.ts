import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { GatheredBatchByKey } from '@parley/kafka';
import { Topics, type LlmUsageEvent, type MessageOutboundEvent, type MessageStatusEvent, type TemplateStatusEvent, type TenantPlanChangedEvent } from '@parley/contracts';
import { WalletsService } from '../wallet/wallets.service';
import { ChargesStore } from './charges.store';
import { MeteringService } from './metering.service';
import { StatusOutcomes } from './status-outcomes';

/** What billing meters and charges from: accepted sends, their outcomes, the templates and plans that price them. */
@Controller()
export class MeteringConsumer {
  private readonly outcomes: StatusOutcomes;

  constructor(
    private readonly metering: MeteringService,
    private readonly wallets: WalletsService,
    charges: ChargesStore,
  ) {
    this.outcomes = new StatusOutcomes(charges);
  }

  /**
   * A key's waiting sends together; the key groups consumed side by side are metered in one transaction, gathered for
   * up to 500 ms (the gateway's balance view keeps a reservation for each accepted send until it is charged).
   */
  @EventPattern(Topics.MessageOutbound, GatheredBatchByKey)
  async onOutbound(@Payload() events: MessageOutboundEvent[]): Promise<void> {
    await this.metering.onOutbound(events);
  }

  /** A key's waiting statuses together: those that can no longer change a charge (a `read` after `sent`) cost nothing. */
  @EventPattern(Topics.MessageStatus, GatheredBatchByKey)
  async onStatus(@Payload() events: MessageStatusEvent[]): Promise<void> {
    await this.metering.onStatuses(await this.outcomes.needingWork(events));
  }

  /** The plan prices the tenant's sends from now on (setting it again is harmless, so redelivery is too). */
  @EventPattern(Topics.TenantPlanChanged)
  async onPlanChanged(@Payload() event: TenantPlanChangedEvent): Promise<void> {
    await this.wallets.setPlan(event.data.tenant_id, event.data.plan);
  }

  @EventPattern(Topics.LlmUsage)
  async onLlmUsage(@Payload() event: LlmUsageEvent): Promise<void> {
    await this.metering.onLlmUsage(event);
  }

  @EventPattern(Topics.TemplateStatus)
  async onTemplateStatus(@Payload() event: TemplateStatusEvent): Promise<void> {
    await this.metering.onTemplateStatus(event);
  }
}
