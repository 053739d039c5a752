import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsISO8601,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsContactAttributes } from './contacts.dto';

export const MAX_CAMPAIGN_RATE_PER_SECOND = 1000;

export class CampaignTemplateDto {
  @IsString()
  @Matches(/^[a-z0-9_]{1,512}$/, { message: 'template.name must be 1–512 lower-case letters, digits and _' })
  name!: string;

  @IsString()
  @Matches(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'template.language must be a WhatsApp language code such as en or en_US' })
  language!: string;

  /** Cloud API send components; any string may name contact fields: `{{contact.name}}`, `{{contact.attributes.city}}`. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsObject({ each: true, message: 'template.components must be objects' })
  components?: object[];
}

export class CampaignAudienceDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 50, { each: true, message: 'audience.tags must be strings of 1 to 50 characters' })
  tags?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @ArrayUnique()
  @Matches(/^ctc_[0-9A-HJKMNP-TV-Z]{26}$/, { each: true, message: 'audience.contact_ids must be contact ids (ctc_…)' })
  contact_ids?: string[];

  @IsOptional()
  @IsContactAttributes()
  attributes?: Record<string, string | number | boolean>;
}

/** Body of `POST /api/v1/campaigns/audience-count` (CONTRACT.md §9): the audience a campaign would have, counted now. */
export class AudienceCountBody {
  @IsDefined({ message: 'audience is required: {tags?, contact_ids?, attributes?}' })
  @IsObject({ message: 'audience must be an object' })
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience!: CampaignAudienceDto;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `POST /api/v1/campaigns` (CONTRACT.md §15). */
export class CreateCampaignBody {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @IsString()
  @Matches(/^chn_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'channel_id must be a channel id (chn_…)' })
  channel_id?: string;

  @IsDefined({ message: 'template is required: {name, language, components?}' })
  @IsObject({ message: 'template must be an object' })
  @ValidateNested()
  @Type(() => CampaignTemplateDto)
  template!: CampaignTemplateDto;

  @IsDefined({ message: 'audience is required: {tags?, contact_ids?, attributes?}' })
  @IsObject({ message: 'audience must be an object' })
  @ValidateNested()
  @Type(() => CampaignAudienceDto)
  audience!: CampaignAudienceDto;

  /** Starts by itself then (status `scheduled`); without it the campaign is a `draft` until started. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'schedule_at must be an ISO 8601 date-time' })
  schedule_at?: string;

  /** Messages per second (default CAMPAIGN_DEFAULT_RATE_PER_SECOND): keep it below the number's limit so replies go first. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CAMPAIGN_RATE_PER_SECOND)
  rate_per_second?: number;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
