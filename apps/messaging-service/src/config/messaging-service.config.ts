import { BaseConfig, Secret, type MediaStoreSettings } from '@parley/service-kit';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Min } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/;

export class MessagingServiceConfig extends BaseConfig implements MediaStoreSettings {
  override PORT = 3002;

  /** The Graph API host of `meta` channels, without the version (in development: the sandbox). */
  @Matches(HTTP_URL, { message: 'GRAPH_API_BASE_URL must be an http(s) URL without a trailing slash or version' })
  GRAPH_API_BASE_URL = 'http://127.0.0.1:3100';

  @Matches(/^v\d+\.\d+$/, { message: 'GRAPH_API_VERSION must look like v21.0' })
  GRAPH_API_VERSION = 'v21.0';

  /** Meta app credentials: embedded signup exchanges the signup code for a business token with them. */
  @IsNotEmpty()
  META_APP_ID = 'dev-meta-app-id';

  @Secret()
  @IsNotEmpty()
  META_APP_SECRET = 'dev-meta-app-secret';

  /** 360dialog's Cloud API pass-through (`POST {D360_BASE_URL}/messages` with `D360-API-KEY`). */
  @Matches(HTTP_URL, { message: 'D360_BASE_URL must be an http(s) URL without a trailing slash' })
  D360_BASE_URL = 'https://waba-v2.360dialog.io';

  /** Messages per second one `meta`/`360dialog` number may send unless its channel sets its own limit (sandbox: none). */
  @IsInt()
  @Min(1)
  WHATSAPP_SEND_LIMIT_PER_SECOND = 80;

  /** Time a provider gets to answer one send; after it the send's outcome is unknown. */
  @IsInt()
  @Min(100)
  WHATSAPP_PROVIDER_TIMEOUT_MS = 5_000;

  /**
   * How long a send whose outcome is unknown (time-out, connection lost) waits for a status naming it before it is
   * sent again: a provider that took it reports `sent` within seconds, and repeating it sooner could deliver twice.
   * A minute, not seconds: a provider slow enough to time a send out is slow with its statuses too (npm run chaos saw
   * them 45 s late after a restart), and a customer minds a repeated message more than a late one.
   */
  @IsInt()
  @Min(0)
  WHATSAPP_UNCONFIRMED_SEND_WAIT_MS = 60_000;

  /** First pause of one customer after a pair-rate error (131056); it doubles while they continue. */
  @IsInt()
  @Min(1)
  WHATSAPP_PAIR_BACKOFF_MS = 6_000;

  /** The WhatsApp sandbox: provisions sandbox numbers and serves the Cloud API routes of `sandbox` channels. */
  @Matches(HTTP_URL, { message: 'SANDBOX_URL must be an http(s) URL without a trailing slash' })
  SANDBOX_URL = 'http://127.0.0.1:3100';

  @IsBoolean()
  SANDBOX_ENABLED = true;

  /** AES-256-GCM keys of stored provider credentials: 32 bytes each, base64; comma-separated, the first encrypts. */
  @Secret()
  @Matches(/^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$/, {
    message: 'ENCRYPTION_KEY must be a comma-separated list of 32-byte keys, each base64 (44 characters)',
  })
  ENCRYPTION_KEY = 'ZGV2LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzLWxvbmc=';

  /** Media (CONTRACT.md §13): the local directory of the media store when S3_ENDPOINT is empty (shared with the gateway). */
  @IsNotEmpty()
  MEDIA_DIR = 'tmp/media';

  /** An S3-compatible endpoint for the media store; empty: MEDIA_DIR. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'S3_ENDPOINT must be an http(s) URL, or empty for the local MEDIA_DIR' })
  S3_ENDPOINT = '';

  @IsNotEmpty()
  S3_BUCKET = 'parley-media';

  @IsNotEmpty()
  S3_REGION = 'us-east-1';

  @IsString()
  S3_ACCESS_KEY_ID = '';

  @IsString()
  S3_SECRET_ACCESS_KEY = '';

  /** Days a media file is kept after its last upload, then removed by the hourly sweep. */
  @IsInt()
  @Min(1)
  MEDIA_RETENTION_DAYS = 30;

  /** First pause after a failed download of a customer's file from the provider; it doubles per attempt (8 in all). */
  @IsInt()
  @Min(10)
  MEDIA_DOWNLOAD_RETRY_MS = 2_000;

  /** SMS (CONTRACT.md §17): Twilio's REST API host of `twilio` channels (sandbox SMS channels use SANDBOX_URL). */
  @Matches(HTTP_URL, { message: 'TWILIO_API_BASE_URL must be an http(s) URL without a trailing slash' })
  TWILIO_API_BASE_URL = 'https://api.twilio.com';

  /**
   * The gateway's public origin (the setting the gateway and responder read too): Twilio status callbacks go to
   * {PUBLIC_BASE_URL}/webhooks/twilio/sms/status. Empty: GATEWAY_URL, the gateway as the services reach it.
   */
  @Matches(/^(https?:\/\/[^\s/]+)?$/, { message: 'PUBLIC_BASE_URL must be an http(s) origin without a path, or empty' })
  PUBLIC_BASE_URL = '';

  @Matches(HTTP_URL, { message: 'GATEWAY_URL must be an http(s) URL without a trailing slash' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  /** Where providers reach the gateway's webhooks. */
  get publicGatewayUrl(): string {
    return this.PUBLIC_BASE_URL || this.GATEWAY_URL;
  }

  /** The Twilio account the sandbox plays: sandbox SMS channels send and are signed with it. */
  @Matches(/^AC[0-9a-f]{32}$/, { message: 'SANDBOX_TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits' })
  SANDBOX_TWILIO_ACCOUNT_SID = 'AC5a4db0c0ffee00000000000000000000';

  @Secret()
  @IsNotEmpty()
  SANDBOX_TWILIO_AUTH_TOKEN = 'dev-sandbox-twilio-auth-token';

  /**
   * Voice (CONTRACT.md §17): how long a speech webhook waits for the agent's reply before it answers a filler and a
   * redirect. The caller must hear something within 1.5 s of the speech result; the gateway's hop takes the rest.
   */
  @IsInt()
  @Min(100)
  VOICE_REPLY_WAIT_MS = 1_200;

  /** Email (CONTRACT.md §17): the sandbox's SMTP sink, where sandbox email channels send. */
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SANDBOX_SMTP_URL must be an smtp:// URL' })
  SANDBOX_SMTP_URL = 'smtp://127.0.0.1:2526';

  /** The inbound SMTP listener: mail for a connected email channel's address reaches its agent. 0: any free port. */
  @IsInt()
  @Min(0)
  SMTP_PORT = 2525;

  @IsNotEmpty()
  SMTP_HOST = '127.0.0.1';

  /** Largest inbound email taken (bytes); a bigger one is refused at SMTP with 552. */
  @IsInt()
  @Min(1024)
  SMTP_MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
}
