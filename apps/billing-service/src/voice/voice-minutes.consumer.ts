import { Controller, Injectable } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type VoiceCallEndedEvent } from '@parley/contracts';
import { BalanceView } from '../balance-view/balance-view';
import { ChargesService } from '../metering/charges.service';
import { MeteringStore } from '../metering/metering.store';
import { VoiceMinutesStore } from './voice-minutes.store';

/**
 * A voice call's minutes (CONTRACT.md §17): usage `voice`/`voice_minute` of the day it ended, counted once per call,
 * and charged at the price book's `voice_minute` price when it has one. The call's id, not the event's, is what is recorded as processed: a status
 * callback Twilio repeats, or one that reached two gateway instances, becomes two events of the same call and still
 * meters (and charges) its minutes once.
 */
@Injectable()
export class VoiceMinutesService {
  constructor(
    private readonly store: VoiceMinutesStore,
    private readonly metering: MeteringStore,
    private readonly charges: ChargesService,
    private readonly view: BalanceView,
  ) {}

  async onCallEnded(event: VoiceCallEndedEvent): Promise<void> {
    const { data } = event;
    const tenantId = event.tenant_id;
    if (!tenantId || tenantId !== data.tenant_id || !data.call_sid || !(data.billable_minutes > 0)) return;
    await this.charges.transaction(async (manager) => {
      if (!(await this.metering.firstTime(`voice-call:${data.call_sid}`, manager))) return;
      await this.store.addMinutes(tenantId, data.ended_at.slice(0, 10), data.billable_minutes, manager);
      await this.charges.onMinutes(manager, { tenantId, callSid: data.call_sid, minutes: data.billable_minutes });
    });
    await this.view.push(tenantId);
  }
}

@Controller()
export class VoiceMinutesConsumer {
  constructor(private readonly minutes: VoiceMinutesService) {}

  @EventPattern(Topics.VoiceCallEnded)
  async onCallEnded(@Payload() event: VoiceCallEndedEvent): Promise<void> {
    await this.minutes.onCallEnded(event);
  }
}
