import { IsE164 } from '@parley/contracts';
import { IsOptional, IsString, Length } from 'class-validator';

/** `POST /_sandbox/sms/inbound`: a customer texts a business number. */
export class InboundSmsDto {
  @IsE164()
  from!: string;

  @IsE164()
  to!: string;

  @IsString()
  @Length(1, 1600)
  body!: string;
}

/** `GET /_sandbox/sms/messages?to=&from=`: what was recorded, newest first. */
export class ListSmsQuery {
  @IsOptional()
  @IsString()
  to?: string;

  @IsOptional()
  @IsString()
  from?: string;
}
