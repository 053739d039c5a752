import { Type } from 'class-transformer';
import { IsCalendarDate } from './validators';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsObject, IsOptional, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';

/** A decimal string: no sign, no exponent, up to 15 digits before the point and 4 after. */
export const DEAL_AMOUNT = /^(0|[1-9]\d{0,14})(\.\d{1,4})?$/;

/** ISO 4217 currency codes this runtime knows (Intl's list), so "ABC" is refused while "EUR" and "JPY" pass. */
export const ISO_4217_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

const AMOUNT_RULE = 'amount must be a decimal string such as "1234567.89" (up to 15 digits, a point and up to 4 decimals; no sign or exponent)';
const CURRENCY_RULE = 'currency must be an ISO 4217 code of 3 capital letters, such as "EUR"';
const STAGE_RULE = 'stages must be 1 to 20 distinct names of 1 to 40 characters';
const OWNER_RULE = 'owner must be a team member id (usr_…)';
const ulidOf = (prefix: string) => new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`);

export class MoneyBody {
  @IsString({ message: AMOUNT_RULE })
  @Matches(DEAL_AMOUNT, { message: AMOUNT_RULE })
  amount!: string;

  @IsString({ message: CURRENCY_RULE })
  @IsIn([...ISO_4217_CURRENCIES], { message: CURRENCY_RULE })
  currency!: string;
}

/** Body of `POST /api/v1/pipelines` (CONTRACT.md §14). */
export class CreatePipelineBody {
  @IsString()
  @Length(1, 100)
  name!: string;

  @IsArray({ message: STAGE_RULE })
  @ArrayMinSize(1, { message: STAGE_RULE })
  @ArrayMaxSize(20, { message: STAGE_RULE })
  @ArrayUnique({ message: STAGE_RULE })
  @IsString({ each: true, message: STAGE_RULE })
  @Length(1, 40, { each: true, message: STAGE_RULE })
  stages!: string[];

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `POST /api/v1/deals`: no `pipeline_id` → the default pipeline; no `stage` → its first stage. */
export class CreateDealBody {
  @IsString()
  @Length(1, 200)
  title!: string;

  @Matches(ulidOf('ctc'), { message: 'contact_id must be a contact id (ctc_…)' })
  contact_id!: string;

  @IsOptional()
  @Matches(ulidOf('cmp'), { message: 'company_id must be a company id (cmp_…)' })
  company_id?: string;

  @IsOptional()
  @Matches(ulidOf('pip'), { message: 'pipeline_id must be a pipeline id (pip_…)' })
  pipeline_id?: string;

  @IsOptional()
  @IsString()
  @Length(1, 40)
  stage?: string;

  @IsObject({ message: 'value must be an object {amount, currency}' })
  @ValidateNested()
  @Type(() => MoneyBody)
  value!: MoneyBody;

  @IsOptional()
  @Matches(ulidOf('usr'), { message: OWNER_RULE })
  owner?: string;

  /** When the deal is expected to close: a calendar date (`2026-03-31`). */
  @IsOptional()
  @IsCalendarDate()
  expected_close_date?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `PATCH /api/v1/deals/{id}`: only the fields given change; `null` clears company_id, value, owner or expected_close_date. */
export class UpdateDealBody {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  title?: string;

  @IsOptional()
  @Matches(ulidOf('ctc'), { message: 'contact_id must be a contact id (ctc_…)' })
  contact_id?: string;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @Matches(ulidOf('cmp'), { message: 'company_id must be a company id (cmp_…)' })
  company_id?: string | null;

  /** One of the deal's pipeline's stages (400 otherwise); a change sends `deal.stage_changed`. */
  @IsOptional()
  @IsString()
  @Length(1, 40)
  stage?: string;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsObject({ message: 'value must be an object {amount, currency} or null' })
  @ValidateNested()
  @Type(() => MoneyBody)
  value?: MoneyBody | null;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @Matches(ulidOf('usr'), { message: OWNER_RULE })
  owner?: string | null;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsCalendarDate()
  expected_close_date?: string | null;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
