import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { BILLING_CATEGORIES, BILLING_PLANS, type BillingCategory, type BillingPlan } from '../rpc/billing.rpc';

/** Money in requests: a decimal string with up to 6 decimals, never a JSON number (floats lose cents). */
export const DECIMAL_AMOUNT = /^\d{1,14}(\.\d{1,6})?$/;
export const SIGNED_DECIMAL_AMOUNT = /^-?\d{1,14}(\.\d{1,6})?$/;

export class PriceLine {
  @IsIn(BILLING_PLANS, { message: `plan must be one of: ${BILLING_PLANS.join(', ')}` })
  plan!: BillingPlan;

  @IsIn(BILLING_CATEGORIES, { message: `category must be one of: ${BILLING_CATEGORIES.join(', ')}` })
  category!: BillingCategory;

  @Matches(DECIMAL_AMOUNT, { message: 'unit_price must be a decimal string such as "0.05" (up to 6 decimals)' })
  unit_price!: string;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as USD' })
  currency!: string;
}

/** Body of `PUT /admin/v1/prices`: the lines to set (others stay as they are). */
export class SetPricesBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => PriceLine)
  prices!: PriceLine[];
}

/** Body of `POST /admin/v1/tenants/{tenant_id}/wallet/adjustments`: an operator's credit (+) or debit (−). */
export class AdjustWalletBody {
  @Matches(SIGNED_DECIMAL_AMOUNT, { message: 'amount must be a signed decimal string such as "10.00" or "-2.50" (up to 6 decimals)' })
  amount!: string;

  /** The operator's reference (a ticket, an agreement): the adjustment's cause id, and its idempotency key. */
  @IsString()
  @Length(1, 100)
  reference!: string;

  @IsString()
  @Length(1, 500)
  description!: string;
}

/** Body of `POST /api/v1/billing/top-ups`: how much to add to the wallet, in its currency (whole cents). */
export class CreateTopUpBody {
  @Matches(/^\d{1,6}(\.\d{1,2})?$/, { message: 'amount must be a decimal string such as "20.00" (up to 2 decimals)' })
  amount!: string;
}
