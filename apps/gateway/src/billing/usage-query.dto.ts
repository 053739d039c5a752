import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const DAYS_RULE = 'days must be a whole number from 1 to 366';

/** `?days=` of `GET /api/v1/billing/usage`: how many UTC days back, today included (30 by default). */
export class UsageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: DAYS_RULE })
  @Min(1, { message: DAYS_RULE })
  @Max(366, { message: DAYS_RULE })
  days: number = 30;
}
