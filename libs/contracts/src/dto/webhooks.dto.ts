import { ArrayUnique, IsArray, IsBoolean, IsIn, IsISO8601, IsOptional, IsString, IsUrl, Length } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../rpc/webhooks.rpc';

const URL_RULE = { require_protocol: true, protocols: ['http', 'https'], require_tld: false, allow_underscores: true };

/** The settings an endpoint has besides its URL, all optional on create and on update (validation is inherited). */
abstract class WebhookSettings {
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `events must contain only: ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  events?: WebhookEventType[];

  @IsOptional()
  @IsString()
  @Length(0, 500)
  description?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsBoolean()
  ordered?: boolean;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `POST /api/v1/webhooks` (CONTRACT.md §5). Address safety (https, public) is checked by webhook-service. */
export class CreateWebhookBody extends WebhookSettings {
  @IsString()
  @Length(1, 2048)
  @IsUrl(URL_RULE, { message: 'url must be an absolute http(s) URL' })
  url!: string;
}

/** Body of `PATCH /api/v1/webhooks/{id}`: any subset of the settings. */
export class UpdateWebhookBody extends WebhookSettings {
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  @IsUrl(URL_RULE, { message: 'url must be an absolute http(s) URL' })
  url?: string;
}

/** Body of `POST /api/v1/webhooks/{id}/replay`. The 7-day window is checked by webhook-service. */
export class ReplayWebhookBody {
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time, e.g. 2025-01-02T03:04:05Z' })
  since!: string;
}
