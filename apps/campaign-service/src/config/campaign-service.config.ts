import { BaseConfig } from '@parley/service-kit';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';

export class CampaignServiceConfig extends BaseConfig {
  override PORT = 3006;

  /**
   * A campaign's pace when it names none (messages per second). The Cloud API's per-number default is 80/s (§4) and
   * messaging-service spaces every send of a number evenly over that limit; a campaign well below it leaves the rest
   * of each second's slots to agent replies, so a customer writing in meanwhile is answered without waiting behind it.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  CAMPAIGN_DEFAULT_RATE_PER_SECOND = 20;

  /**
   * The sender loop's safety sweep (ms) when nothing is due: finds what another instance started or scheduled while this
   * one slept (that instance sends it meanwhile). Due batches and scheduled starts wake the loop on time themselves.
   */
  @IsInt()
  @Min(20)
  @Max(60_000)
  CAMPAIGN_SWEEP_MS = 5_000;

  /**
   * At start, asks messaging-service whether the template is approved and filled (`templates.check-send`) and what the
   * number's send limit is (the campaign's pace is kept to three quarters of it). Off only where messaging-service is absent.
   */
  @IsBoolean()
  CAMPAIGN_MESSAGING_CHECKS = true;

  /**
   * At start, asks billing-service what the campaign will cost (`billing.estimate`: recipients × the price of the
   * template's category) and records it on the campaign. Off only where billing-service is absent.
   */
  @IsBoolean()
  CAMPAIGN_BILLING_ESTIMATE = true;

  /** Refuse a start the wallet cannot pay for with 402 `insufficient-funds` (as the gateway refuses a send, §16; on by default, §20). */
  @IsBoolean()
  BILLING_ENFORCED = true;
}
