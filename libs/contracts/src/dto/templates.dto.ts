import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '../events/templates';

/**
 * Body of `POST /api/v1/templates` (CONTRACT.md §13). The shape is checked here; each component against the Cloud
 * API's limits by messaging-service (400 naming `components[i].…`).
 */
export class CreateTemplateBody {
  @IsString()
  @Matches(/^[a-z0-9_]{1,512}$/, { message: 'name must be 1–512 lower-case letters, digits and _' })
  name!: string;

  @IsString()
  @Matches(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'language must be a WhatsApp language code such as en or en_US' })
  language!: string;

  @IsIn(TEMPLATE_CATEGORIES, { message: `category must be one of: ${TEMPLATE_CATEGORIES.join(', ')}` })
  category!: TemplateCategory;

  /** Cloud API components: one BODY, optionally HEADER, FOOTER and BUTTONS. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  components!: object[];

  /** The channel to create it on; the default channel when omitted. */
  @IsOptional()
  @IsString()
  @Matches(/^chn_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'channel_id must be a channel id (chn_…)' })
  channel_id?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
