import { BaseConfig } from '@parley/service-kit';
import { IsInt, Max, Min } from 'class-validator';

export class CrmServiceConfig extends BaseConfig {
  override PORT = 3005;

  /**
   * The outbox relay's safety sweep: how long it sleeps when nothing woke it (a write in this process wakes it at
   * once; the sweep finds rows another instance committed and could not publish).
   */
  @IsInt()
  @Min(50)
  @Max(60_000)
  CRM_OUTBOX_SWEEP_MS = 2_000;
}
