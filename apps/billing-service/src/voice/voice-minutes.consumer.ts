import { Controller, Injectable } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type VoiceCallEndedEvent } from '@parley/contracts';
import { BalanceView } from '../balance-view/balance-view';
import { ChargesService } from '../metering/charges.service';

/**
 * A voice call's minutes (CONTRACT.md §17): usage `voice`/`voice_minute` of the day it ended, counted once per call,
 * and charged at the price book's `voice_minute` price when it has one. The call's id, not the event's, is what is recorded as processed: a status
 * callback Twilio repeats, or one that reached two gateway instances, becomes two events of the same call and still
 * meters (and charges) its minutes once.
 */
@Injectable()
export class VoiceMinutesService {
  constructor(
    private readonly charges: ChargesService,
    private readonly view: BalanceView,
  ) {}

  async onCallEnded(event: VoiceCallEndedEvent): Promise<void> {
    const { data } = event;
    const tenantId = event.tenant_id;
    if (!tenantId || tenantId !== data.tenant_id || !data.call_sid || !(data.billable_minutes > 0)) return;
    await this.charges.transaction(async (manager) => {
      const first = (await manager.query(`INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING event_id`, [`voice-call:${data.call_sid}`])) as unknown[];
      if (first.length === 0) return;
      await manager.query(
        `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity) VALUES ($1, $2, 'voice', 'voice_minute', $3)
         ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
        [tenantId, data.ended_at.slice(0, 10), data.billable_minutes],
      );
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
