import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsLatitude,
  IsLongitude,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateIf,
  ValidateNested,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { RICH_SEND_TYPES, type RichSendType } from '../events/media';
import { IsChannelSender, IsRecipient } from './validators';

/** The Cloud API's limits of interactive messages (CONTRACT.md §13). */
export const INTERACTIVE_LIMITS = { buttons: 3, buttonTitle: 20, buttonId: 256, body: 1024, sections: 10, rows: 10, rowTitle: 24, rowId: 200, rowDescription: 72, listButton: 20 } as const;
export const CAPTION_MAX_CHARS = 1024;

const MEDIA_TYPES = ['image', 'document', 'audio', 'video'];

export class LocationDto {
  @IsLatitude({ message: 'latitude must be a number between -90 and 90' })
  latitude!: number;

  @IsLongitude({ message: 'longitude must be a number between -180 and 180' })
  longitude!: number;

  @IsOptional()
  @IsString()
  @Length(1, 1000)
  name?: string;

  @IsOptional()
  @IsString()
  @Length(1, 1000)
  address?: string;
}

export class ReplyButtonDto {
  @IsString()
  @Length(1, INTERACTIVE_LIMITS.buttonId)
  id!: string;

  @IsString()
  @Length(1, INTERACTIVE_LIMITS.buttonTitle, { message: `title must be 1 to ${INTERACTIVE_LIMITS.buttonTitle} characters (a WhatsApp reply button)` })
  title!: string;
}

export class ListRowDto {
  @IsString()
  @Length(1, INTERACTIVE_LIMITS.rowId)
  id!: string;

  @IsString()
  @Length(1, INTERACTIVE_LIMITS.rowTitle, { message: `title must be 1 to ${INTERACTIVE_LIMITS.rowTitle} characters (a WhatsApp list row)` })
  title!: string;

  @IsOptional()
  @IsString()
  @Length(1, INTERACTIVE_LIMITS.rowDescription)
  description?: string;
}

export class ListSectionDto {
  @IsOptional()
  @IsString()
  @Length(1, INTERACTIVE_LIMITS.rowTitle)
  title?: string;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => ListRowDto)
  rows!: ListRowDto[];
}

/** No two entries share an `id` (WhatsApp answers the tapped id; it must say which one). */
function UniqueIds(options?: ValidationOptions) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'uniqueIds',
      target: target.constructor,
      propertyName: property,
      options: { message: `${property} must have distinct ids`, ...options },
      validator: {
        validate: (value: unknown) => {
          if (!Array.isArray(value)) return true;
          const ids = value.flatMap((v: { id?: unknown; rows?: { id?: unknown }[] }) => (Array.isArray(v?.rows) ? v.rows.map((r) => r?.id) : [v?.id]));
          return new Set(ids).size === ids.length;
        },
      },
    });
}

/** At most `max` rows across all sections of a list. */
function MaxRows(max: number) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'maxRows',
      target: target.constructor,
      propertyName: property,
      options: { message: `sections may hold at most ${max} rows in all` },
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.reduce((n: number, s: { rows?: unknown[] }) => n + (Array.isArray(s?.rows) ? s.rows.length : 0), 0) <= max,
      },
    });
}

export class InteractiveDto {
  @IsIn(['button', 'list'], { message: 'type must be one of: button, list' })
  type!: 'button' | 'list';

  @IsString()
  @Length(1, INTERACTIVE_LIMITS.body)
  body!: string;

  @ValidateIf((o: InteractiveDto) => o.type === 'button' || o.buttons !== undefined)
  @IsArray({ message: 'buttons is required for a button message (1 to 3 reply buttons)' })
  @ArrayMinSize(1)
  @ArrayMaxSize(INTERACTIVE_LIMITS.buttons, { message: `buttons may hold at most ${INTERACTIVE_LIMITS.buttons} reply buttons` })
  @UniqueIds()
  @ValidateNested({ each: true })
  @Type(() => ReplyButtonDto)
  buttons?: ReplyButtonDto[];

  /** A list's button label (WhatsApp shows it under the body); default "Options". */
  @ValidateIf((o: InteractiveDto) => o.button !== undefined)
  @IsString()
  @Length(1, INTERACTIVE_LIMITS.listButton)
  button?: string;

  @ValidateIf((o: InteractiveDto) => o.type === 'list' || o.sections !== undefined)
  @IsArray({ message: 'sections is required for a list message' })
  @ArrayMinSize(1)
  @ArrayMaxSize(INTERACTIVE_LIMITS.sections)
  @MaxRows(INTERACTIVE_LIMITS.rows)
  @UniqueIds({ message: 'sections must have distinct row ids' })
  @ValidateNested({ each: true })
  @Type(() => ListSectionDto)
  sections?: ListSectionDto[];
}

/**
 * `POST /v1/send` with a `type` other than text (CONTRACT.md §13): `{type: image|document|audio|video, media_id,
 * caption?}`, `{type: location, location}` or `{type: interactive, interactive}`, WhatsApp only.
 */
export class RichSendBody {
  @IsIn(['whatsapp'], { message: 'media, location and interactive messages are sent on the whatsapp channel only' })
  channel!: 'whatsapp';

  @IsRecipient()
  to!: string;

  @IsIn(RICH_SEND_TYPES, { message: `type must be one of: text, ${RICH_SEND_TYPES.join(', ')}` })
  type!: RichSendType;

  @ValidateIf((o: RichSendBody) => MEDIA_TYPES.includes(o.type) || o.media_id !== undefined)
  @IsString({ message: 'media_id is required: the id of an uploaded file (POST /api/v1/media)' })
  @Matches(/^med_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'media_id must be a media id (med_…) from POST /api/v1/media' })
  media_id?: string;

  @ValidateIf((o: RichSendBody) => o.caption !== undefined)
  @IsString()
  @Length(1, CAPTION_MAX_CHARS)
  caption?: string;

  @ValidateIf((o: RichSendBody) => o.type === 'location' || o.location !== undefined)
  @IsDefined({ message: 'location is required for a location message' })
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  location?: LocationDto;

  @ValidateIf((o: RichSendBody) => o.type === 'interactive' || o.interactive !== undefined)
  @IsDefined({ message: 'interactive is required for an interactive message' })
  @IsObject()
  @ValidateNested()
  @Type(() => InteractiveDto)
  interactive?: InteractiveDto;

  @IsOptional()
  @IsString()
  tenant_id?: string;

  @IsOptional()
  @IsChannelSender()
  from?: string;
}

/** The rules across fields that decorators do not say: each type takes only its own fields. */
export function richSendErrors(body: RichSendBody): { field: string; message: string }[] {
  const errors: { field: string; message: string }[] = [];
  const isMedia = MEDIA_TYPES.includes(body.type);
  if (!isMedia && body.media_id !== undefined) errors.push({ field: 'media_id', message: `media_id is not allowed on a ${body.type} message` });
  if (body.caption !== undefined && !['image', 'document', 'video'].includes(body.type)) errors.push({ field: 'caption', message: 'caption is allowed on image, document and video messages only' });
  if (body.type !== 'location' && body.location !== undefined) errors.push({ field: 'location', message: `location is not allowed on a ${body.type} message` });
  if (body.type !== 'interactive' && body.interactive !== undefined) errors.push({ field: 'interactive', message: `interactive is not allowed on a ${body.type} message` });
  if (body.interactive?.type === 'button' && body.interactive.sections !== undefined) errors.push({ field: 'interactive.sections', message: 'sections belong to a list message, not a button message' });
  if (body.interactive?.type === 'list' && body.interactive.buttons !== undefined) errors.push({ field: 'interactive.buttons', message: 'buttons belong to a button message; a list has sections' });
  return errors;
}
