import { IsE164 } from '@parley/contracts';
import { Type } from 'class-transformer';
import { IsBase64, IsDefined, IsIn, IsObject, IsOptional, IsString, Length, ValidateIf, ValidateNested } from 'class-validator';

/** A photo's bytes as base64: a Cloud API image (JPEG or PNG, at most 5 MiB) is at most this long. */
export const PLAYGROUND_PHOTO_BASE64_MAX = Math.ceil((5 * 1024 * 1024) / 3) * 4;

/** The route and its body limit: the photo's base64 and a little JSON around it. */
export const PLAYGROUND_INBOUND_ROUTE = '/api/v1/playground/inbound';
export const PLAYGROUND_INBOUND_MAX_BYTES = PLAYGROUND_PHOTO_BASE64_MAX + 16 * 1024;

/** A photo the customer attaches (the sandbox's `media` of `POST /_sandbox/inbound`). */
export class PlaygroundPhoto {
  @IsString()
  @IsBase64()
  @Length(1, PLAYGROUND_PHOTO_BASE64_MAX, { message: 'media.base64 must be a photo of at most 5 MiB' })
  base64!: string;

  @IsIn(['image/jpeg', 'image/png'], { message: 'media.mime_type must be image/jpeg or image/png' })
  mime_type!: string;
}

/** The channels a playground customer writes on (CONTRACT.md §17): WhatsApp, or a text message to an SMS number. */
export const PLAYGROUND_CHANNELS = ['whatsapp', 'sms'] as const;
export type PlaygroundChannel = (typeof PLAYGROUND_CHANNELS)[number];

/**
 * `POST /api/v1/playground/inbound`: the tenant plays a customer writing to one of its own numbers: `text`, or a photo
 * (`{type: "image", media: {base64, mime_type}, caption?}`, CONTRACT.md §13), on WhatsApp or (`channel: "sms"`) by SMS.
 */
export class PlaygroundInboundBody {
  /** The channel the customer writes on: `whatsapp` (default) or `sms` (text only, to one of the tenant's SMS numbers). */
  @IsOptional()
  @IsIn(PLAYGROUND_CHANNELS, { message: `channel must be one of: ${PLAYGROUND_CHANNELS.join(', ')}` })
  channel?: PlaygroundChannel;

  /** The customer's number. */
  @IsE164()
  from!: string;

  /** One of the tenant's connected numbers. */
  @IsString()
  @Length(1, 32)
  to!: string;

  @IsOptional()
  @IsIn(['text', 'image'])
  type?: 'text' | 'image';

  @ValidateIf((o: PlaygroundInboundBody) => (o.type ?? 'text') === 'text')
  @IsString()
  @Length(1, 4096)
  text?: string;

  @ValidateIf((o: PlaygroundInboundBody) => o.type === 'image')
  @IsDefined({ message: 'media is required for a photo' })
  @IsObject()
  @ValidateNested()
  @Type(() => PlaygroundPhoto)
  media?: PlaygroundPhoto;

  @IsOptional()
  @IsString()
  @Length(1, 1024)
  caption?: string;
}

/** `GET /api/v1/playground/messages?customer=`: what the sandbox delivered to that customer. */
export class PlaygroundMessagesQuery {
  @IsE164()
  customer!: string;
}
