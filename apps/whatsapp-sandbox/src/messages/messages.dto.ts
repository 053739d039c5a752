import { IsE164 } from '@parley/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsRFC3339, IsString, Length, Matches, Max, Min } from 'class-validator';

/** A phone number written any common way; matched on its digits. (A `+` in a query string arrives as a space.) */
const ANY_NUMBER = /^\s*\+?[\d\s().-]{5,24}$/;
const ANY_NUMBER_MESSAGE = '$property must be a phone number (its digits are matched, e.g. +12015550100)';

/** `POST /_sandbox/inbound`: a customer (`from`) writes `text` to a business number of the sandbox (`to`). */
export class InboundMessageDto {
  @IsE164()
  from!: string;

  @IsString()
  @Matches(ANY_NUMBER, { message: ANY_NUMBER_MESSAGE })
  to!: string;

  @IsString()
  @Length(1, 4096)
  text!: string;
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
