import { BaseConfig, Secret } from '@parley/service-kit';
import { IsBoolean, IsInt, IsString, Max, Min, MinLength } from 'class-validator';

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
}
