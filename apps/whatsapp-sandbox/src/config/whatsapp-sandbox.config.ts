import { BaseConfig, Secret } from '@parley/service-kit';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Min } from 'class-validator';

export class WhatsappSandboxConfig extends BaseConfig {
  override PORT = 3100;

  /** Where the sandbox delivers notifications, as Meta would: `${GATEWAY_URL}/webhooks/whatsapp`. */
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'GATEWAY_URL must be an http(s) URL' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  /** The Meta app whose credentials the embedded-signup code exchange checks. */
  @IsString()
  @IsNotEmpty()
  META_APP_ID = 'dev-meta-app-id';

  /** Signs every notification (`X-Hub-Signature-256`) and is checked by the code exchange, as Meta's app secret is. */
  @Secret()
  @IsString()
  @IsNotEmpty()
  META_APP_SECRET = 'dev-meta-app-secret';

  /** Send `sent`, `delivered` and `read` notifications for each accepted message (off for load tests). */
  @IsBoolean()
  SANDBOX_STATUS_CALLBACKS = true;

  /**
   * Pauses (ms) between attempts of a notification the gateway did not take (anything but a 200); the last one
   * repeats until SANDBOX_NOTIFY_GIVE_UP_MS. Meta, too, keeps retrying with decreasing frequency.
   */
  @Matches(/^\s*\d+\s*(,\s*\d+\s*)*$/, { message: 'SANDBOX_NOTIFY_RETRY_MS must be comma-separated milliseconds, e.g. 250,1000,4000' })
  SANDBOX_NOTIFY_RETRY_MS = '250,1000,4000,15000,60000,300000';

  /** A status notification still not taken this long after it was recorded is dropped (logged). */
  @IsInt()
  @Min(1)
  SANDBOX_NOTIFY_GIVE_UP_MS = 86_400_000;

  /** A customer's message (`POST /_sandbox/inbound`) the gateway has not taken is retried this long: 7 days, as Meta does. */
  @IsInt()
  @Min(1)
  SANDBOX_INBOUND_GIVE_UP_MS = 604_800_000;

  /** How long a submitted message template stays PENDING before its review outcome is notified (Meta: minutes to hours). */
  @IsInt()
  @Min(0)
  SANDBOX_TEMPLATE_REVIEW_MS = 2000;

  /** The Twilio account the sandbox plays (CONTRACT.md §17): sends must authenticate with it, webhooks are signed with its token. */
  @Matches(/^AC[0-9a-f]{32}$/, { message: 'SANDBOX_TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits' })
  SANDBOX_TWILIO_ACCOUNT_SID = 'AC5a4db0c0ffee00000000000000000000';

  @Secret()
  @IsNotEmpty()
  SANDBOX_TWILIO_AUTH_TOKEN = 'dev-sandbox-twilio-auth-token';

  /** The SMTP sink that records the mail businesses send to customers; 0: any free port. */
  @IsInt()
  @Min(0)
  SANDBOX_SMTP_PORT = 2526;

  /** Where a played customer's email goes: messaging-service's inbound SMTP listener. */
  @Matches(/^smtps?:\/\/\S+$/, { message: 'MESSAGING_SMTP_URL must be an smtp:// URL' })
  MESSAGING_SMTP_URL = 'smtp://127.0.0.1:2525';

  /** The Stripe account the sandbox plays: Checkout Sessions must be created with this secret key (Bearer). */
  @Secret()
  @IsNotEmpty()
  SANDBOX_STRIPE_SECRET_KEY = 'sk_test_parley_sandbox';

  /** Signs every Stripe webhook event (`Stripe-Signature`), as the endpoint's signing secret does at Stripe. */
  @Secret()
  @IsNotEmpty()
  SANDBOX_STRIPE_WEBHOOK_SECRET = 'whsec_parley_sandbox';

  /** Where Stripe events go; empty: `${GATEWAY_URL}/webhooks/stripe`. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'SANDBOX_STRIPE_WEBHOOK_URL must be an http(s) URL, or empty' })
  SANDBOX_STRIPE_WEBHOOK_URL = '';

  /** A Stripe event not taken by the endpoint this long is given up (Stripe retries for up to three days). */
  @IsInt()
  @Min(1)
  SANDBOX_STRIPE_GIVE_UP_MS = 259_200_000;

  get stripeWebhookUrl(): string {
    return this.SANDBOX_STRIPE_WEBHOOK_URL || `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/stripe`;
  }

  get notifyRetryDelaysMs(): number[] {
    return this.SANDBOX_NOTIFY_RETRY_MS.split(',').map((s) => Number(s.trim()));
  }

  /** Where a played customer's SMS goes, as Twilio posts to a number's SmsUrl. */
  get twilioSmsUrl(): string {
    return `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/twilio/sms`;
  }

  /** Where a played caller's call goes, as Twilio posts to a number's VoiceUrl. */
  get twilioVoiceUrl(): string {
    return `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/twilio/voice`;
  }

  /** Where a call's status callback goes (its StatusCallback). */
  get twilioVoiceStatusUrl(): string {
    return `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/twilio/voice/status`;
  }

  get webhookUrl(): string {
    return `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/whatsapp`;
  }
}
