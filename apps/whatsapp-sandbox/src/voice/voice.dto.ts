import { IsE164 } from '@parley/contracts';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

/** `POST /_sandbox/voice/call`: a caller rings a business number. */
export class PlaceCallDto {
  @IsE164()
  from!: string;

  @IsE164()
  to!: string;

  /** Signs the webhook with this token instead of the account's: a forged call, which the gateway must refuse. */
  @IsOptional()
  @IsString()
  @Length(1, 256)
  forge_with_token?: string;
}

/** `POST /_sandbox/voice/say`: the caller says a sentence on a call that is listening. */
export class SayDto {
  @Matches(/^CA[0-9a-f]{32}$/, { message: 'call_sid must be a call sid (CA followed by 32 hex digits)' })
  call_sid!: string;

  @IsString()
  @Length(1, 1000)
  text!: string;
}

/** `POST /_sandbox/voice/hangup`: the caller hangs up; `duration_seconds` defaults to the time since the call began. */
export class HangUpDto {
  @Matches(/^CA[0-9a-f]{32}$/, { message: 'call_sid must be a call sid (CA followed by 32 hex digits)' })
  call_sid!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86_400)
  duration_seconds?: number;
}
