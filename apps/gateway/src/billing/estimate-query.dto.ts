import { IsIn, IsOptional, Matches, ValidateIf } from 'class-validator';

const QUANTITY_RULE = 'quantity must be a whole number from 0 to 100000000';

/**
 * `GET /api/v1/billing/estimate`: what `quantity` sends would cost now, as a campaign's start asks (the template's
 * category on the tenant's plan, less the free allowance left). Without a template a WhatsApp send is a free-form one.
 */
export class EstimateQueryDto {
  @IsOptional()
  @IsIn(['whatsapp', 'sms', 'email'], { message: 'channel must be one of whatsapp, sms, email' })
  channel: 'whatsapp' | 'sms' | 'email' = 'whatsapp';

  /** Digits, one rule (so a missing or bad quantity is named once): 0 to 100,000,000, billing-service's own bound. */
  @Matches(/^(0|[1-9]\d{0,7}|100000000)$/, { message: QUANTITY_RULE })
  quantity!: string;

  /** The template's name (with `template_language`). */
  @IsOptional()
  @Matches(/^[a-z0-9_]{1,512}$/, { message: 'template_name must be a template name: lower-case letters, digits and _' })
  template_name?: string;

  @ValidateIf((q: EstimateQueryDto) => q.template_name !== undefined)
  @Matches(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'template_language must be a WhatsApp language code such as en or en_US (required with template_name)' })
  template_language?: string;
}
