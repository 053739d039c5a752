import { BaseConfig } from '@parley/service-kit';
import { IsInt, Matches, Max, Min } from 'class-validator';

export class WebhookServiceConfig extends BaseConfig {
  override PORT = 3004;

  /** Seconds between delivery attempts after the first (CONTRACT.md §5); one more attempt than entries. */
  @Matches(/^\s*\d+\s*(,\s*\d+\s*)*$/, { message: 'WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, e.g. 5,300,1800' })
  WEBHOOK_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,50400,72000,86400';

  /** A receiver must answer 2xx within this time (connect, headers and the capped body read). */
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 15_000;

  get retryScheduleSeconds(): number[] {
    return this.WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim()));
  }
}
