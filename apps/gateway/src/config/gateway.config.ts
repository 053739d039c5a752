import { BaseConfig, Secret } from '@parley/service-kit';
import { IsBoolean, IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class GatewayConfig extends BaseConfig {
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

  /** Failed credentials (verify token, signature, channel token) one client address may present per minute at provider intake. */
  @IsInt()
  @Min(1)
  INTAKE_AUTH_FAILURES_PER_MINUTE = 30;
}
