import { BaseConfig, EmptySwitchesOff, Secret, type MediaStoreSettings } from '@parley/service-kit';
import { IsBoolean, IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class GatewayConfig extends BaseConfig implements MediaStoreSettings {
  override PORT = 3000;

  /** HS256 key of the access tokens `/oauth/token` issues. */
  @Secret()
  @IsString()
  @MinLength(16)
  JWT_SECRET = 'dev-jwt-secret-change-me';

  @IsInt()
  @Min(60)
  @Max(86_400)
  JWT_TTL_SECONDS = 3600;

  /** Operators' bearer token for `/admin/v1/*`. */
  @Secret()
  @IsString()
  @MinLength(1)
  ADMIN_TOKEN = 'dev-admin-token';

  /** Key of the `X-Hub-Signature-256` HMAC on Cloud API notifications. */
  @Secret()
  @IsString()
  @MinLength(1)
  META_APP_SECRET = 'dev-meta-app-secret';

  /** Token Meta echoes when it verifies the webhook URL. */
  @Secret()
  @IsString()
  @MinLength(1)
  META_VERIFY_TOKEN = 'dev-verify-token';

  /** Give every new account its own sandbox WhatsApp number (always on in development). */
  @IsBoolean()
  SANDBOX_ENABLED = true;

  /** Prefix of every Redis key and channel of the gateway (tests isolate runs with it). */
  @Matches(/^[A-Za-z0-9._:-]*$/)
  REDIS_KEY_PREFIX = 'parley:gw:';

  /**
   * Refuse a paid send the wallet cannot cover with 402 (CONTRACT.md §16, on by default §20), checked against the
   * balance view billing-service keeps in Redis. Off (an operator's choice): sends are never refused for money
   * (billing still meters and charges what the wallet covers).
   */
  @IsBoolean()
  BILLING_ENFORCED = true;

  /** Start of the Redis keys of billing-service's balance view (its BILLING_VIEW_PREFIX). */
  @Matches(/^[A-Za-z0-9._:-]*$/)
  BILLING_VIEW_PREFIX = 'parley:billing:';

  /** Authenticated requests a `free` tenant may make per UTC day (CONTRACT.md §8). */
  @IsInt()
  @Min(1)
  FREE_PLAN_DAILY_LIMIT = 500;

  /** The same for `pro` (a higher limit); `enterprise` is unlimited. */
  @IsInt()
  @Min(1)
  PRO_PLAN_DAILY_LIMIT = 100_000;

  /** Accounts one client address may create per hour (loopback exempt outside production). */
  @IsInt()
  @Min(1)
  ACCOUNT_RATE_LIMIT_PER_HOUR = 20;

  /** `/oauth/token` requests one client address may make per minute (loopback exempt outside production). */
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_MINUTE = 60;

  /**
   * Sign-in, password-reset and invitation-acceptance requests one client address may make per minute (loopback exempt
   * outside production), besides the per-email lock on failed sign-ins.
   */
  @IsInt()
  @Min(1)
  SIGN_IN_RATE_LIMIT_PER_MINUTE = 30;

  /** Failed credentials (verify token, signature, channel token) one client address may present per minute at provider intake. */
  @IsInt()
  @Min(1)
  INTAKE_AUTH_FAILURES_PER_MINUTE = 30;

  /**
   * A team member's dashboard session (CONTRACT.md §12): it ends after this many seconds without a request (sliding:
   * each request renews it), and in any case `SESSION_MAX_AGE_SECONDS` after sign-in.
   */
  @IsInt()
  @Min(1)
  SESSION_TTL_SECONDS = 86_400;

  @IsInt()
  @Min(1)
  SESSION_MAX_AGE_SECONDS = 30 * 86_400;

  /** Requests one team member's session may make per UTC day (they do not spend the tenant's API quota). */
  @IsInt()
  @Min(1)
  MEMBER_DAILY_REQUEST_LIMIT = 20_000;

  /** Failed sign-ins for one email within `LOGIN_LOCK_WINDOW_SECONDS` before sign-in is refused with 429. */
  @IsInt()
  @Min(1)
  LOGIN_FAILURES_BEFORE_LOCK = 10;

  @IsInt()
  @Min(1)
  LOGIN_LOCK_WINDOW_SECONDS = 900;

  /** How long an invitation link and a password-reset link stay valid. */
  @IsInt()
  @Min(1)
  INVITE_TTL_SECONDS = 7 * 86_400;

  @IsInt()
  @Min(1)
  PASSWORD_RESET_TTL_SECONDS = 3600;

  /**
   * scrypt cost of new password hashes, as log2(N) with r=8, p=1: 17 is OWASP's recommendation (128 MiB, 2^17).
   * Stored hashes carry their own parameters, so raising it later leaves existing passwords valid.
   */
  @IsInt()
  @Min(14)
  @Max(20)
  PASSWORD_SCRYPT_LOG_N = 17;

  /**
   * The public address of the gateway (scheme and host), for the links of invitations and password resets. Empty: the
   * address the request that makes the link came to.
   */
  /**
   * The proxies in front of the gateway (a load balancer, an Ingress) whose `X-Forwarded-For` names the client, so
   * per-address limits (sign-ups, tokens, sign-in, provider intake failures) count each client, not the proxy:
   * `true` (any hop), a number of hops, or comma-separated addresses and CIDR ranges. Empty: trust none.
   */
  @Matches(/^(|true|\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, {
    message: 'TRUST_PROXY must be empty, true, a number of hops, or comma-separated addresses or CIDR ranges',
  })
  TRUST_PROXY = '';

  /** TRUST_PROXY as Fastify takes it. */
  get trustProxy(): boolean | number | string[] {
    if (this.TRUST_PROXY === '') return false;
    if (this.TRUST_PROXY === 'true') return true;
    if (/^\d+$/.test(this.TRUST_PROXY)) return Number(this.TRUST_PROXY);
    return this.TRUST_PROXY.split(',');
  }

  @Matches(/^(https?:\/\/[^\s/]+)?$/, { message: 'PUBLIC_BASE_URL must be an http(s) origin without a path, or empty' })
  PUBLIC_BASE_URL = '';

  /**
   * The platform's own mail (issue 32): team invitations and password resets, sent over SMTP (`smtp://` or `smtps://`,
   * with `user:password@` when the server asks; `?secure=`, `?requireTLS=` as nodemailer reads them). In development
   * the sandbox's SMTP sink, where every mail can be read (`GET /_sandbox/email/messages`). Empty: no mail is sent (the
   * links are only answered, and written to the log outside production). May carry a password: never logged.
   */
  @Matches(/^(smtps?:\/\/\S+)?$/, { message: 'MAIL_SMTP_URL must be an smtp:// or smtps:// URL, or empty to send no mail' })
  @EmptySwitchesOff()
  MAIL_SMTP_URL = 'smtp://127.0.0.1:2526';

  /** The From of the platform's mail: an address, or `Name <address>`. */
  @Matches(/^([^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, { message: 'MAIL_FROM must be an email address, or Name <address>' })
  MAIL_FROM = 'Parley <no-reply@parley.localhost>';

  /**
   * Pauses between attempts at a mail the SMTP server did not take or could not be reached for (milliseconds,
   * comma-separated; the last repeats until the mail's link expires). A permanent refusal (5xx) is not retried.
   */
  @Matches(/^\s*\d+\s*(,\s*\d+\s*)*$/, { message: 'MAIL_RETRY_SCHEDULE_MS must be comma-separated milliseconds, e.g. 2000,10000,60000' })
  MAIL_RETRY_SCHEDULE_MS = '2000,10000,60000,300000,900000,3600000';

  /**
   * AES-256-GCM keys (32 bytes each, base64; comma-separated, the first encrypts): the mail waiting to be sent is
   * stored encrypted, since its links are credentials. The same setting messaging-service encrypts channel credentials with.
   */
  @Secret()
  @Matches(/^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$/, {
    message: 'ENCRYPTION_KEY must be a comma-separated list of 32-byte keys, each base64 (44 characters)',
  })
  ENCRYPTION_KEY = 'ZGV2LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzLWxvbmc=';

  get mailRetryDelaysMs(): number[] {
    return this.MAIL_RETRY_SCHEDULE_MS.split(',').map((s) => Number(s.trim()));
  }

  /** Media (CONTRACT.md §13): the local directory of the media store when S3_ENDPOINT is empty (shared with messaging-service). */
  @MinLength(1)
  MEDIA_DIR = 'tmp/media';

  /** An S3-compatible endpoint for the media store; empty: MEDIA_DIR. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'S3_ENDPOINT must be an http(s) URL, or empty for the local MEDIA_DIR' })
  S3_ENDPOINT = '';

  @MinLength(1)
  S3_BUCKET = 'parley-media';

  @MinLength(1)
  S3_REGION = 'us-east-1';

  @IsString()
  S3_ACCESS_KEY_ID = '';

  @IsString()
  S3_SECRET_ACCESS_KEY = '';
}
