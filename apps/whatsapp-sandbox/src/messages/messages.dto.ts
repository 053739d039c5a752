import { IsE164 } from '@parley/contracts';
import { Type } from 'class-transformer';
import { IsBase64, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsRFC3339, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';

/** A phone number written any common way; matched on its digits. (A `+` in a query string arrives as a space.) */
const ANY_NUMBER = /^\s*\+?[\d\s().-]{5,24}$/;
const ANY_NUMBER_MESSAGE = '$property must be a phone number (its digits are matched, e.g. +12015550100)';

export const INBOUND_MEDIA_TYPES = ['image', 'document', 'audio', 'video', 'sticker'] as const;
export const INBOUND_TYPES = ['text', ...INBOUND_MEDIA_TYPES, 'interactive'] as const;
export type InboundType = (typeof INBOUND_TYPES)[number];

/** A file the customer sends: its bytes and type; `fail_downloads` makes that many downloads of it fail first (a 500). */
export class InboundMediaDto {
  @IsString()
  @IsBase64()
  @Length(1, 22_000_000)
  base64!: string;

  @IsString()
  @Matches(/^[a-z]+\/[a-z0-9.+-]+$/, { message: 'mime_type must be a media type such as image/jpeg' })
  mime_type!: string;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  filename?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(20)
  fail_downloads?: number;
}

/** The button or list row the customer tapped. */
export class InboundReplyDto {
  @IsString()
  @Length(1, 256)
  id!: string;

  @IsString()
  @Length(1, 24)
  title!: string;

  /** `button` (a reply button, the default) or `list` (a list row). */
  @IsOptional()
  @IsIn(['button', 'list'])
  kind?: 'button' | 'list';
}

/**
 * `POST /_sandbox/inbound`: a customer (`from`) writes to a business number of the sandbox (`to`): `text`, or
 * `{type: "image"|"document"|"audio"|"video"|"sticker", media: {base64, mime_type}, caption?}`, or
 * `{type: "interactive", reply: {id, title}}` (a tapped reply button or list row).
 */
export class InboundMessageDto {
  @IsE164()
  from!: string;

  @IsString()
  @Matches(ANY_NUMBER, { message: ANY_NUMBER_MESSAGE })
  to!: string;

  @IsOptional()
  @IsIn(INBOUND_TYPES)
  type?: InboundType;

  @ValidateIf((o: InboundMessageDto) => (o.type ?? 'text') === 'text')
  @IsString()
  @Length(1, 4096)
  text?: string;

  @ValidateIf((o: InboundMessageDto) => (INBOUND_MEDIA_TYPES as readonly string[]).includes(o.type ?? 'text'))
  @IsDefined({ message: 'media is required for a media message' })
  @IsObject()
  @ValidateNested()
  @Type(() => InboundMediaDto)
  media?: InboundMediaDto;

  @IsOptional()
  @IsString()
  @Length(1, 1024)
  caption?: string;

  @ValidateIf((o: InboundMessageDto) => o.type === 'interactive')
  @IsDefined({ message: 'reply is required for an interactive message' })
  @IsObject()
  @ValidateNested()
  @Type(() => InboundReplyDto)
  reply?: InboundReplyDto;
}

export const LIST_MAX = 1000;

/** `GET /_sandbox/messages?to=&from=&since=&limit=`: what customers received, oldest first. */
export class ListMessagesQuery {
  /** The customer. */
  @IsOptional()
  @Matches(ANY_NUMBER, { message: ANY_NUMBER_MESSAGE })
  to?: string;

  /** The business number that sent. */
  @IsOptional()
  @Matches(ANY_NUMBER, { message: ANY_NUMBER_MESSAGE })
  from?: string;

  @IsOptional()
  @IsRFC3339({ message: 'since must be an RFC 3339 timestamp such as 2025-01-31T12:00:00Z' })
  since?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_MAX)
  limit?: number;
}
