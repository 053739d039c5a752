import { IsEmail, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

/** `POST /_sandbox/email/inbound`: a customer emails a business address (through messaging-service's SMTP listener). */
export class InboundEmailDto {
  @IsEmail()
  from!: string;

  @IsEmail()
  to!: string;

  @IsString()
  @Length(0, 998)
  subject!: string;

  @IsString()
  @Length(0, 100_000)
  text!: string;

  /** The Message-ID this mail answers (threading): also sent as References. */
  @IsOptional()
  @IsString()
  @Length(3, 998)
  in_reply_to?: string;

  /** Pads the mail with an attachment of this many bytes (to try the listener's size limit). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64 * 1024 * 1024)
  attachment_bytes?: number;
}

/** `GET /_sandbox/email/messages?to=`: the mail the sink received, newest first. */
export class ListEmailQuery {
  @IsOptional()
  @IsString()
  to?: string;
}
