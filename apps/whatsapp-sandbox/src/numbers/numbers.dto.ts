import { IsE164 } from '@parley/contracts';
import { IsOptional } from 'class-validator';

/** `POST /_sandbox/numbers`: `{}` allocates the next free number; `{phone_number}` provisions that one. */
export class ProvisionNumberDto {
  @IsOptional()
  @IsE164()
  phone_number?: string;
}
