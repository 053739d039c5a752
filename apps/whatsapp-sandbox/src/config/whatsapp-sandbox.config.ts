import { BaseConfig, Secret } from '@parley/service-kit';
import { IsBoolean, IsNotEmpty, IsString, Matches } from 'class-validator';

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

  get webhookUrl(): string {
    return `${this.GATEWAY_URL.replace(/\/+$/, '')}/webhooks/whatsapp`;
  }
}
