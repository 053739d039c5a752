import { IsE164 } from '@parley/contracts';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `POST /_sandbox/numbers`: `{}` allocates the next free number; `{phone_number}` provisions that one. */
export class ProvisionNumberDto {
  @IsOptional()
  @IsE164()
  phone_number?: string;
}

/** `PUT /_sandbox/numbers/{phone_number_id}/behaviour`: make a number slow or strict (omitted fields stay as they are). */
export class NumberBehaviourDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  answer_delay_ms?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  pair_interval_ms?: number;
}
