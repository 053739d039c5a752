import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, Length, Matches, ValidateIf, ValidateNested, IsDefined } from 'class-validator';
import { SUPPORTED_CHANNELS, type ChannelKind } from '../events/messages';
import { IsChannelRecipient, IsChannelSender } from './validators';

export class TemplateLanguageDto {
  @IsString()
  @Matches(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'code must be a WhatsApp language code such as en or en_US' })
  code!: string;

  @IsOptional()
  @IsIn(['deterministic'])
  policy?: string;
}

export class TemplateDto {
  @IsString()
  @Matches(/^[a-z0-9_]{1,512}$/, { message: 'name must be a template name (lower-case letters, digits and _)' })
  name!: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateLanguageDto)
  language!: TemplateLanguageDto;

  @IsOptional()
  @IsArray()
  components?: unknown[];
}

/** Body of `POST /v1/send` (CONTRACT.md §4). Exactly one of `message` or `template`. */
export class SendMessageBody {
  @IsIn(SUPPORTED_CHANNELS, { message: `channel must be one of: ${SUPPORTED_CHANNELS.join(', ')}` })
  channel!: ChannelKind;

  /** WhatsApp: E.164 or a business-scoped user id; SMS: E.164 (checked in parseSendBody); email: an address. */
  @IsChannelRecipient()
  to!: string;

  @ValidateIf((o: SendMessageBody) => o.template === undefined || o.message !== undefined)
  @IsString({ message: 'message must be a string (or send a template instead)' })
  @Length(1, 4096)
  message?: string;

  @ValidateIf((o: SendMessageBody) => o.template !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateDto)
  template?: TemplateDto;

  /** Email only (required there): the subject line. */
  @ValidateIf((o: SendMessageBody) => o.channel === 'email' || o.subject !== undefined)
  @IsString({ message: 'subject is required on the email channel' })
  @Length(1, 998)
  subject?: string;

  /** Email only: an HTML alternative of `message`. */
  @IsOptional()
  @IsString()
  @Length(1, 1_000_000)
  html?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;

  @IsOptional()
  @IsChannelSender()
  from?: string;
}
